package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Energy;
import io.vitals.Percentage;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * The kinds of value a figure is measured and budgeted in, each with its base unit, its parser and its one
 * formatter. Every report prints a figure through {@link #format(double)}, so a figure reads the same everywhere:
 * the public value types' own {@code toString} ({@code "812.0 MiB"}, {@code "45.2%"}, {@code "10.0 MiB/min"}) and
 * {@link DurationParser#format} ({@code "250 ms"}, {@code "12.4 s"}, {@code "1m 5s"}).
 */
@API(status = INTERNAL, since = "0.1")
public enum Unit {

    /** Bytes. */
    SIZE(DataSize.ACCEPTED_FORMS, true) {
        @Override
        public double parse(String text) {
            return DataSize.parse(text).toBytes();
        }

        @Override
        String formatNonNegative(double value) {
            return DataSize.ofBytes(Math.round(value)).toString();
        }

        @Override
        public Optional<String> nearMiss(String text) {
            return UnitForms.sizeHint(text.strip());
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.size(raw);
        }

        @Override
        public String asWritten(String written) {
            return IEC_SIZE.matcher(written).matches() ? written : DataSize.parse(written).toString();
        }

        @Override
        public String formatDocker(double value) {
            return DataSize.ofBytes(Math.round(value)).toDockerBinaryString();
        }
    },
    /** Seconds. */
    DURATION(DurationParser.ACCEPTED_FORMS, false) {
        @Override
        public double parse(String text) {
            return seconds(DurationParser.parse(text));
        }

        @Override
        String formatNonNegative(double value) {
            return DurationParser.format(Duration.ofNanos(Math.round(value * 1e9)));
        }

        @Override
        public Optional<String> nearMiss(String text) {
            return UnitForms.durationHint(text.strip());
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.scaled(raw, 1, "s", 1000, "ms");
        }
    },
    /** Percent, 100 being all of it (or, for CPU, one core). */
    PERCENT(Percentage.ACCEPTED_FORMS, false) {
        @Override
        public double parse(String text) {
            return Percentage.parse(text).value();
        }

        @Override
        String formatNonNegative(double value) {
            return Percentage.of(value).toString();
        }

        // Prometheus wants ratios: 1 is 100 %
        @Override
        public double toPrometheus(double value) {
            return value / 100;
        }

        @Override
        public Optional<String> nearMiss(String text) {
            return UnitForms.percentHint(text.strip());
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.plain(raw, "%");
        }

        @Override
        public String formatDocker(double value) {
            return Percentage.of(value).toDockerString();
        }
    },
    /** A whole number of things. */
    COUNT("a non-negative whole number, e.g. 64", true) {
        @Override
        public double parse(String text) {
            String trimmed = text.trim();
            if (!trimmed.matches("[0-9]{1,18}")) {
                throw new IllegalArgumentException("Invalid count '" + text + "': expected " + acceptedForms());
            }
            return Long.parseLong(trimmed);
        }

        @Override
        String formatNonNegative(double value) {
            return Long.toString(Math.round(value));
        }

        // a count has no unit to get wrong
        @Override
        public Optional<String> nearMiss(String text) {
            return Optional.empty();
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.plain(raw, "");
        }
    },
    /** Bytes per second. */
    RATE(DataRate.ACCEPTED_FORMS, false) {
        @Override
        public double parse(String text) {
            return DataRate.parse(text).bytesPerSecond();
        }

        @Override
        String formatNonNegative(double value) {
            return DataRate.ofBytesPerSecond(value).toString();
        }

        @Override
        public Optional<String> nearMiss(String text) {
            return UnitForms.rateHint(text.strip());
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.rate(raw);
        }

        @Override
        public String asWritten(String written) {
            return IEC_SIZE.matcher(written.replaceFirst("\\s*/.*$", "")).matches() ? written
                    : DataRate.parse(written).toString();
        }
    },
    /** Joules. */
    ENERGY(Energy.ACCEPTED_FORMS, false) {
        @Override
        public double parse(String text) {
            return Energy.parse(text).toJoules();
        }

        @Override
        String formatNonNegative(double value) {
            return Energy.ofJoules(value).toString();
        }

        // SI units are case-sensitive ("mJ" is not "MJ"), so only a unit that matches in another case is fixed
        @Override
        public Optional<String> nearMiss(String text) {
            return UnitForms.caseHint(text.strip(), "kJ", "J", "kJ", "MJ", "Wh", "kWh");
        }

        @Override
        public BudgetText roundUp(double raw) {
            return UnitForms.scaled(raw, 1000, "kJ", 1, "J");
        }
    };

    // A size in IEC units or plain bytes, as reports print it: "1.5GiB", "512 MiB", "4096B".
    private static final Pattern IEC_SIZE = Pattern.compile("\\d+(?:\\.\\d+)?\\s*(?:B|KiB|MiB|GiB|TiB)");

    private final String acceptedForms;
    private final boolean whole;

    Unit(String acceptedForms, boolean whole) {
        this.acceptedForms = acceptedForms;
        this.whole = whole;
    }

    /** What {@link #parse} accepts; completes the sentence "expected …". */
    public String acceptedForms() {
        return acceptedForms;
    }

    /** Whether values are whole numbers (bytes, counts), written without a fraction in JSON and Prometheus. */
    public boolean isWhole() {
        return whole;
    }

    /**
     * Parses a budget value into the base unit.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public abstract double parse(String text);

    /**
     * The one way a value of this unit is printed; a negative value (a shrinking memory trend, a change) gets a
     * leading minus sign, and NaN (a figure not known) reads "unknown".
     */
    public String format(double value) {
        if (Double.isNaN(value)) {
            return "unknown";
        }
        return value < 0 ? "-" + formatNonNegative(-value) : formatNonNegative(value);
    }

    abstract String formatNonNegative(double value);

    /**
     * A hint for a budget value {@link #parse} rejected but that is almost right, such as "did you mean 5s?";
     * empty when nothing obvious is near. A hint never proposes something the parser would reject in turn.
     */
    public abstract Optional<String> nearMiss(String text);

    /**
     * A suggested budget: {@code raw} rounded up to two significant digits in a unit a person would write
     * ({@code 330MiB}, {@code 17s}, {@code 850ms}, {@code 160%}, {@code 41}), never below the smallest such value.
     */
    public abstract BudgetText roundUp(double raw);

    /**
     * A valid budget value as reports print it: as written, except where the unit has a form reports avoid (a size
     * in docker-style units, "200MB", prints in IEC units, "200.0 MiB", so a report never shows "MB" beside "MiB").
     */
    public String asWritten(String written) {
        return written;
    }

    /** A value as {@code docker stats} would print it; units docker does not show print as {@link #format}. */
    public String formatDocker(double value) {
        return format(value);
    }

    /** The value in the Prometheus base unit: the same, except percentages, which become ratios. */
    public double toPrometheus(double value) {
        return value;
    }

    /** Seconds with nanosecond precision. */
    public static double seconds(Duration duration) {
        return duration.getSeconds() + duration.getNano() / 1e9;
    }
}
