package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Energy;
import io.vitals.Percentage;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
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
    SIZE(DataSize.ACCEPTED_FORMS, true, text -> DataSize.parse(text).toBytes(),
            value -> DataSize.ofBytes(Math.round(value)).toString(), UnitForms::sizeHint, UnitForms::size) {
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
    DURATION(DurationParser.ACCEPTED_FORMS, false, text -> seconds(DurationParser.parse(text)),
            value -> DurationParser.format(Duration.ofNanos(Math.round(value * 1e9))), UnitForms::durationHint,
            raw -> UnitForms.scaled(raw, 1, "s", 1000, "ms")),
    /** Percent, 100 being all of it (or, for CPU, one core). */
    PERCENT(Percentage.ACCEPTED_FORMS, false, text -> Percentage.parse(text).value(),
            value -> Percentage.of(value).toString(), UnitForms::percentHint, raw -> UnitForms.plain(raw, "%")) {
        // Prometheus wants ratios: 1 is 100 %
        @Override
        public double toPrometheus(double value) {
            return value / 100;
        }

        @Override
        public String formatDocker(double value) {
            return Percentage.of(value).toDockerString();
        }
    },
    /** A whole number of things; a count has no unit to get wrong, so no near miss. */
    COUNT("a non-negative whole number, e.g. 64", true, Unit::parseCount, value -> Long.toString(Math.round(value)),
            text -> Optional.empty(), raw -> UnitForms.plain(raw, "")),
    /** Bytes per second. */
    RATE(DataRate.ACCEPTED_FORMS, false, text -> DataRate.parse(text).bytesPerSecond(),
            value -> DataRate.ofBytesPerSecond(value).toString(), UnitForms::rateHint, UnitForms::rate) {
        @Override
        public String asWritten(String written) {
            return IEC_SIZE.matcher(written.replaceFirst("\\s*/.*$", "")).matches() ? written
                    : DataRate.parse(written).toString();
        }
    },
    /** Joules. SI units are case-sensitive ("mJ" is not "MJ"): only a unit that matches in another case is fixed. */
    ENERGY(Energy.ACCEPTED_FORMS, false, text -> Energy.parse(text).toJoules(),
            value -> Energy.ofJoules(value).toString(),
            text -> UnitForms.caseHint(text, "kJ", "J", "kJ", "MJ", "Wh", "kWh"),
            raw -> UnitForms.scaled(raw, 1000, "kJ", 1, "J"));

    // A size in IEC units or plain bytes, as reports print it: "1.5GiB", "512 MiB", "4096B".
    private static final Pattern IEC_SIZE = Pattern.compile("\\d+(?:\\.\\d+)?\\s*(?:B|KiB|MiB|GiB|TiB)");

    private final String acceptedForms;
    private final boolean whole;
    private final ToDoubleFunction<String> parser;
    private final DoubleFunction<String> formatter;
    private final Function<String, Optional<String>> nearMiss;
    private final DoubleFunction<BudgetText> roundUp;

    /**
     * @param parser text to the base unit, throwing {@link IllegalArgumentException} naming the accepted forms
     * @param formatter a non-negative value as every report prints it
     * @param nearMiss the hint for a stripped text the parser rejected
     * @param roundUp a suggested budget from a raw value
     */
    Unit(String acceptedForms, boolean whole, ToDoubleFunction<String> parser, DoubleFunction<String> formatter,
            Function<String, Optional<String>> nearMiss, DoubleFunction<BudgetText> roundUp) {
        this.acceptedForms = acceptedForms;
        this.whole = whole;
        this.parser = parser;
        this.formatter = formatter;
        this.nearMiss = nearMiss;
        this.roundUp = roundUp;
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
    public double parse(String text) {
        return parser.applyAsDouble(text);
    }

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

    private String formatNonNegative(double value) {
        return formatter.apply(value);
    }

    /**
     * A hint for a budget value {@link #parse} rejected but that is almost right, such as "did you mean 5s?";
     * empty when nothing obvious is near. A hint never proposes something the parser would reject in turn.
     */
    public Optional<String> nearMiss(String text) {
        return nearMiss.apply(text.strip());
    }

    /**
     * A suggested budget: {@code raw} rounded up to two significant digits in a unit a person would write
     * ({@code 330MiB}, {@code 17s}, {@code 850ms}, {@code 160%}, {@code 41}), never below the smallest such value.
     */
    public BudgetText roundUp(double raw) {
        return roundUp.apply(raw);
    }

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

    private static double parseCount(String text) {
        String trimmed = text.trim();
        if (!trimmed.matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException("Invalid count '" + text + "': expected " + COUNT.acceptedForms());
        }
        return Long.parseLong(trimmed);
    }

    /** Seconds with nanosecond precision. */
    public static double seconds(Duration duration) {
        return duration.getSeconds() + duration.getNano() / 1e9;
    }
}
