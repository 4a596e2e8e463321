package io.vitals.internal.budget;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every figure a budget can be set on: its attribute name, how to read it from a usage as a number in its base
 * unit, how to print it, and its direction (for headroom, less is worse).
 */
public enum Metric {

    PEAK_MEMORY("peakMemory", "peak memory", Unit.SIZE, u -> (double) u.peakMemory().toBytes()),
    MEMORY_HEADROOM("memoryHeadroom", "memory headroom", Unit.PERCENT,
            u -> u.memoryHeadroom().map(Percentage::value).orElse(Double.NaN)),
    CPU_TIME("cpuTime", "CPU time", Unit.DURATION, u -> seconds(u.cpuTime())),
    AVERAGE_CPU("averageCpu", "average CPU", Unit.PERCENT, u -> u.averageCpuPercent().value()),
    PEAK_PIDS("peakPids", "peak PIDs", Unit.COUNT, u -> (double) u.peakPids()),
    BLOCK_READ("blockRead", "block read", Unit.SIZE, u -> (double) u.blockRead().toBytes()),
    BLOCK_WRITE("blockWrite", "block write", Unit.SIZE, u -> (double) u.blockWrite().toBytes()),
    NETWORK_RECEIVED("networkReceived", "network received", Unit.SIZE, u -> (double) u.networkReceived().toBytes()),
    NETWORK_SENT("networkSent", "network sent", Unit.SIZE, u -> (double) u.networkSent().toBytes()),
    MEMORY_GROWTH("memoryGrowth", "memory growth", Unit.RATE, u -> u.memoryGrowth().bytesPerSecond()),
    THROTTLED_TIME("throttledTime", "throttled time", Unit.DURATION, u -> seconds(u.throttledTime()));

    private final String attribute;
    private final String label;
    private final Unit unit;
    private final Function<ResourceUsage, Double> reader;

    Metric(String attribute, String label, Unit unit, Function<ResourceUsage, Double> reader) {
        this.attribute = attribute;
        this.label = label;
        this.unit = unit;
        this.reader = reader;
    }

    /** The {@code @ResourceBudget} attribute name. */
    public String attribute() {
        return attribute;
    }

    /** Words for messages: "peak memory". */
    public String label() {
        return label;
    }

    public Unit unit() {
        return unit;
    }

    /** True for minimums (headroom must stay above its budget); false for maximums. */
    public boolean isMinimum() {
        return this == MEMORY_HEADROOM;
    }

    /** The figure in its base unit: bytes, seconds, percent, a count, bytes per second. NaN when unknown. */
    public double read(ResourceUsage usage) {
        return reader.apply(usage);
    }

    public static Optional<Metric> byAttribute(String attribute) {
        for (Metric metric : values()) {
            if (metric.attribute.equals(attribute)) {
                return Optional.of(metric);
            }
        }
        return Optional.empty();
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** The kinds of value budgets are written in, each with its parser and printer. */
    public enum Unit {
        SIZE(DataSize.ACCEPTED_FORMS) {
            @Override
            double parse(String text) {
                return DataSize.parse(text).toBytes();
            }

            @Override
            public String format(double value) {
                return DataSize.ofBytes(Math.round(value)).toString();
            }
        },
        DURATION(DurationParser.ACCEPTED_FORMS) {
            @Override
            double parse(String text) {
                return DurationParser.parse(text).toNanos() / 1e9;
            }

            @Override
            public String format(double value) {
                return DurationParser.format(Duration.ofNanos(Math.round(value * 1e9)));
            }
        },
        PERCENT(Percentage.ACCEPTED_FORMS) {
            @Override
            double parse(String text) {
                return Percentage.parse(text).value();
            }

            @Override
            public String format(double value) {
                return Percentage.of(value).toString();
            }
        },
        COUNT("a non-negative whole number, e.g. 64") {
            @Override
            double parse(String text) {
                String trimmed = text.trim();
                if (!trimmed.matches("[0-9]{1,18}")) {
                    throw new IllegalArgumentException("Invalid count '" + text + "': expected " + acceptedForms());
                }
                return Long.parseLong(trimmed);
            }

            @Override
            public String format(double value) {
                return Long.toString(Math.round(value));
            }
        },
        RATE(DataRate.ACCEPTED_FORMS) {
            @Override
            double parse(String text) {
                return DataRate.parse(text).bytesPerSecond();
            }

            @Override
            public String format(double value) {
                return DataRate.ofBytesPerSecond(value).toString();
            }
        };

        private final String acceptedForms;

        Unit(String acceptedForms) {
            this.acceptedForms = acceptedForms;
        }

        public String acceptedForms() {
            return acceptedForms;
        }

        /** Parses a budget value into the base unit; throws IllegalArgumentException with the accepted forms. */
        abstract double parse(String text);

        public abstract String format(double value);
    }
}
