package io.vitals.internal.report;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;

import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * A key figure of one container in one test, in its base unit (bytes, seconds, percent or a count). The run index,
 * the summary and the baseline all speak in these, so a figure has one name and one unit everywhere.
 */
public enum Metric {

    PEAK_MEMORY("peakMemory", Unit.BYTES, 1024 * 1024, u -> u.peakMemory().toBytes()),
    CPU_TIME("cpuTime", Unit.SECONDS, 0.05, u -> Figures.seconds(u.cpuTime())),
    AVERAGE_CPU("averageCpu", Unit.PERCENT, 1.0, u -> u.averageCpuPercent().value()),
    PEAK_PIDS("peakPids", Unit.COUNT, 2, ResourceUsage::peakPids),
    BLOCK_READ("blockRead", Unit.BYTES, 1024 * 1024, u -> u.blockRead().toBytes()),
    BLOCK_WRITE("blockWrite", Unit.BYTES, 1024 * 1024, u -> u.blockWrite().toBytes()),
    NETWORK_RECEIVED("networkReceived", Unit.BYTES, 1024 * 1024, u -> u.networkReceived().toBytes()),
    NETWORK_SENT("networkSent", Unit.BYTES, 1024 * 1024, u -> u.networkSent().toBytes()),
    WALL_TIME("wallTime", Unit.SECONDS, 0.1, u -> Figures.seconds(u.wallTime()));

    /** How a metric's value is read and printed. */
    public enum Unit { BYTES, SECONDS, PERCENT, COUNT }

    private final String key;
    private final Unit unit;
    private final double noiseFloor;
    private final ToDoubleFunction<ResourceUsage> extractor;

    Metric(String key, Unit unit, double noiseFloor, ToDoubleFunction<ResourceUsage> extractor) {
        this.key = key;
        this.unit = unit;
        this.noiseFloor = noiseFloor;
        this.extractor = extractor;
    }

    /** The name used in settings keys, JSON and messages, e.g. {@code peakMemory}. */
    public String key() {
        return key;
    }

    public Unit unit() {
        return unit;
    }

    /**
     * The smallest absolute change worth reporting. Without it a test that reads 4 KiB instead of nothing would
     * "regress" by infinity percent; with it, only changes big enough to matter on a real machine count.
     */
    public double noiseFloor() {
        return noiseFloor;
    }

    public double valueOf(ResourceUsage usage) {
        return extractor.applyAsDouble(usage);
    }

    /** Formats a value of this metric for people: "812.0 MiB", "1.234 s", "45.2 %", "12". */
    public String format(double value) {
        switch (unit) {
            case BYTES:
                return DataSize.ofBytes(Math.max(0, Math.round(value))).toString();
            case SECONDS:
                return Figures.seconds(value);
            case PERCENT:
                return String.format(Locale.ROOT, "%.1f %%", value);
            default:
                return Long.toString(Math.round(value));
        }
    }

    /** The metric named {@code key}, e.g. {@code peakMemory}. */
    public static Optional<Metric> byKey(String key) {
        for (Metric metric : values()) {
            if (metric.key.equals(key)) {
                return Optional.of(metric);
            }
        }
        return Optional.empty();
    }
}
