package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * Parses and formats the durations written on annotations, such as {@code "250ms"}, {@code "1m30s"} or
 * {@code "PT1M30S"}.
 *
 * <p>Grammar: either ISO-8601 as read by {@link Duration#parse(CharSequence)} (when the text starts with
 * {@code P} or {@code p}), or one or more components {@code <number><unit>} with units, from largest to smallest,
 * {@code h}, {@code m}, {@code s}, {@code ms}, {@code us} (or {@code µs}/{@code μs}) and {@code ns}. Each unit
 * appears at most once and in that order, so {@code 30s1m} is rejected as a likely mistake. A number is decimal
 * digits with an optional fraction ({@code 1.5s}; not {@code .5s}). Whitespace may separate a number from its
 * unit and components from each other, so that every {@link #format(Duration)} result parses back. Fractions
 * round to the nearest nanosecond. Bare numbers, negative durations and unknown units are rejected.
 */
@API(status = INTERNAL, since = "0.1")
public final class DurationParser {

    /** What {@link #parse(String)} accepts, for quoting in error messages; completes the sentence "expected …". */
    public static final String ACCEPTED_FORMS = "a non-negative duration such as 250ms, 60s, 1m30s, 2h or ISO-8601 PT1M30S";

    private static final char MICRO_SIGN = '\u00b5';
    private static final char GREEK_MU = '\u03bc';

    // Alternatives are ordered so that "ms" wins over "m" and every microsecond spelling is tried.
    private static final Pattern COMPONENT = Pattern.compile(
            "\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|us|" + MICRO_SIGN + "s|" + GREEK_MU + "s|ns|h|m|s)");

    // Units from largest to smallest; the index enforces the order. The microsecond spellings share one rank.
    private static final List<String> UNIT_ORDER = List.of("h", "m", "s", "ms", "us", "ns");
    private static final List<Long> NANOS_PER_UNIT = List.of(
            3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L);

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);
    // below it (~31 years) a duration's nanoseconds, plus half of any unit for rounding, fit in a long
    private static final long LONG_ARITHMETIC_SECONDS = 1_000_000_000L;
    private static final BigInteger MAX_SECONDS = BigInteger.valueOf(Long.MAX_VALUE);

    private DurationParser() {
    }

    /**
     * Parses {@code text} as described in the class documentation.
     *
     * @throws IllegalArgumentException naming the text and {@link #ACCEPTED_FORMS} if it does not match or is
     *         negative
     */
    public static Duration parse(String text) {
        Preconditions.notNull(text, "text");
        String trimmed = text.strip();
        Duration duration;
        if (!trimmed.isEmpty() && (trimmed.charAt(0) == 'P' || trimmed.charAt(0) == 'p')) {
            try {
                duration = Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(invalid(text), e);
            }
        } else {
            duration = parseComponents(text, trimmed);
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(invalid(text));
        }
        return duration;
    }

    private static Duration parseComponents(String text, String trimmed) {
        Matcher matcher = COMPONENT.matcher(trimmed);
        BigDecimal nanos = BigDecimal.ZERO;
        int position = 0;
        int previousRank = -1;
        while (position < trimmed.length()) {
            matcher.region(position, trimmed.length());
            if (!matcher.lookingAt()) {
                throw new IllegalArgumentException(invalid(text));
            }
            int rank = rank(matcher.group(2));
            if (rank <= previousRank) {
                throw new IllegalArgumentException(invalid(text));
            }
            nanos = nanos.add(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(rank))));
            previousRank = rank;
            position = matcher.end();
        }
        if (previousRank < 0) {
            // Empty or blank text.
            throw new IllegalArgumentException(invalid(text));
        }
        BigInteger[] secondsAndNanos = nanos.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact()
                .divideAndRemainder(NANOS_PER_SECOND);
        if (secondsAndNanos[0].compareTo(MAX_SECONDS) > 0) {
            throw new IllegalArgumentException("Invalid duration '" + text + "': exceeds the largest supported duration");
        }
        return Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValueExact());
    }

    private static int rank(String unit) {
        if (unit.charAt(0) == MICRO_SIGN || unit.charAt(0) == GREEK_MU) {
            return UNIT_ORDER.indexOf("us");
        }
        return UNIT_ORDER.indexOf(unit);
    }

    private static String invalid(String text) {
        return "Invalid duration '" + text + "': expected " + ACCEPTED_FORMS;
    }

    /**
     * A short human form that {@link #parse(String)} reads back: {@code "100 ns"} and {@code "500 µs"} below a
     * millisecond, {@code "250 ms"} below a second, {@code "12.4 s"} (one decimal) below a minute, {@code "1m 30s"}
     * below an hour and {@code "2h 5m"} above; a zero minor component is left out ({@code "2m"}). Each form rounds
     * to its precision, and a value that rounds up to the next threshold uses the next form ({@code "1m"}, not
     * {@code "60.0 s"}). Negative durations get a leading minus sign.
     */
    public static String format(Duration duration) {
        Preconditions.notNull(duration, "duration");
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        // in long arithmetic up to ~31 years (the BigDecimal divisions were a few % of the CPU of writing a
        // 10,000-test run's reports); beyond, where nanoseconds and rounding could overflow a long, in BigDecimal
        if (duration.getSeconds() < LONG_ARITHMETIC_SECONDS) {
            long nanos = duration.getSeconds() * 1_000_000_000L + duration.getNano();
            return nanos < 1_000 ? nanos + " ns" : format(perUnit -> roundedIn(nanos, perUnit));
        }
        BigDecimal nanos = new BigDecimal(duration.getSeconds()).multiply(new BigDecimal(NANOS_PER_SECOND))
                .add(BigDecimal.valueOf(duration.getNano()));
        return format(perUnit -> roundedIn(nanos, perUnit));
    }

    /** The forms from microseconds up, given the duration rounded half up in a unit of so many nanoseconds. */
    private static String format(LongUnaryOperator roundedIn) {
        long micros = roundedIn.applyAsLong(1_000L);
        if (micros < 1_000) {
            return micros + " " + MICRO_SIGN + "s";
        }
        long millis = roundedIn.applyAsLong(1_000_000L);
        if (millis < 1_000) {
            return millis + " ms";
        }
        long tenths = roundedIn.applyAsLong(100_000_000L);
        if (tenths < 600) {
            return tenths / 10 + "." + tenths % 10 + " s";
        }
        long seconds = roundedIn.applyAsLong(1_000_000_000L);
        if (seconds < 3_600) {
            return withMinor(seconds / 60, "m", seconds % 60, "s");
        }
        long minutes = roundedIn.applyAsLong(60_000_000_000L);
        return withMinor(minutes / 60, "h", minutes % 60, "m");
    }

    /** Half up, as BigDecimal's HALF_UP, for a non-negative count. */
    private static long roundedIn(long nanos, long nanosPerUnit) {
        return (nanos + nanosPerUnit / 2) / nanosPerUnit;
    }

    private static long roundedIn(BigDecimal nanos, long nanosPerUnit) {
        return nanos.divide(BigDecimal.valueOf(nanosPerUnit), 0, RoundingMode.HALF_UP).longValueExact();
    }

    private static String withMinor(long major, String majorUnit, long minor, String minorUnit) {
        return minor == 0 ? major + majorUnit : major + majorUnit + " " + minor + minorUnit;
    }
}
