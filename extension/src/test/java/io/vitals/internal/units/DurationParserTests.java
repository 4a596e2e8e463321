package io.vitals.internal.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.format.DateTimeParseException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("DurationParser")
class DurationParserTests {

    private static final String ACCEPTED = "expected a non-negative duration such as 250ms, 60s, 1m30s, 2h or ISO-8601"
            + " PT1M30S";

    @Nested
    @DisplayName("parse")
    class Parse {

        @ParameterizedTest(name = "\"{0}\" is {1}")
        @CsvSource(delimiter = '|', value = {
                "250ms          | PT0.25S",
                "60s            | PT1M",
                "1.5s           | PT1.5S",
                "1m30s          | PT1M30S",
                "2h             | PT2H",
                "1h15m          | PT1H15M",
                "90m            | PT1H30M",
                "500us          | PT0.0005S",
                "500\u00b5s     | PT0.0005S",
                "500\u03bcs     | PT0.0005S",
                "100ns          | PT0.0000001S",
                "0s             | PT0S",
                "1h2m3s4ms5us6ns| PT1H2M3.004005006S",
                "1m 30s         | PT1M30S",
                "12.4 s         | PT12.4S",
                "2h 5m          | PT2H5M",
                "'  250 ms '    | PT0.25S",
                "1.5h           | PT1H30M",
                "0.0000000015s  | PT0.000000002S",
                "0.0000000014s  | PT0.000000001S",
                "PT1M30S        | PT1M30S",
                "pt1m           | PT1M",
                "PT0.25S        | PT0.25S",
                "P1D            | PT24H",
                "P1DT2H         | PT26H",
        })
        void acceptsEveryForm(String text, Duration expected) {
            assertThat(DurationParser.parse(text)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "rejects \"{0}\"")
        @ValueSource(strings = { "", "  ", "10sec", "5 minutes", "60", "1.5", "-5s", "+5s", "30s1m", "1m1m",
                "1ms1s", "500us500\u00b5s", "1h 1h", "5d", "1S", "1H", "1M", "s", "ms", ".5s", "5.s", "1e3ms",
                "5 s s", "1m,30s", "NaN", "PT-1S", "-PT1S", "PT1M-61S" })
        void rejectsMalformedOrNegativeText(String text) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DurationParser.parse(text))
                    .withMessage("Invalid duration '" + text + "': " + ACCEPTED);
        }

        @Test
        @DisplayName("keeps the ISO-8601 parse failure as the cause")
        void keepsIsoCause() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DurationParser.parse("P1Y"))
                    .withMessage("Invalid duration 'P1Y': " + ACCEPTED)
                    .withCauseInstanceOf(DateTimeParseException.class);
        }

        @Test
        void messageShape() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DurationParser.parse("10sec"))
                    .withMessage("Invalid duration '10sec': expected a non-negative duration such as 250ms, 60s,"
                            + " 1m30s, 2h or ISO-8601 PT1M30S");
            assertThat("expected " + DurationParser.ACCEPTED_FORMS).isEqualTo(ACCEPTED);
        }

        @Test
        void rejectsOverflow() {
            String text = "99999999999999999999h";
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DurationParser.parse(text))
                    .withMessage("Invalid duration '" + text + "': exceeds the largest supported duration");
        }
    }

    @Nested
    @DisplayName("format")
    class Format {

        @ParameterizedTest(name = "{0} reads \"{1}\"")
        @CsvSource(delimiter = '|', value = {
                "PT0S            | 0 ns",
                "PT0.0000001S    | 100 ns",
                "PT0.0000005S    | 500 ns",
                "PT0.0005S       | 500 \u00b5s",
                "PT0.0009996S    | 1 ms",
                "PT0.25S         | 250 ms",
                "PT0.9996S       | 1.0 s",
                "PT1S            | 1.0 s",
                "PT12.44S        | 12.4 s",
                "PT12.45S        | 12.5 s",
                "PT59.96S        | 1m",
                "PT1M30S         | 1m 30s",
                "PT1M30.4S       | 1m 30s",
                "PT59M59.6S      | 1h",
                "PT2H5M          | 2h 5m",
                "PT2H5M29S       | 2h 5m",
                "PT2H            | 2h",
                "PT49H1M         | 49h 1m",
                "PT-1.5S         | -1.5 s",
        })
        void shortHumanForm(Duration duration, String expected) {
            assertThat(DurationParser.format(duration)).isEqualTo(expected);
        }

        @Test
        @DisplayName("long arithmetic gives what exact decimal arithmetic gives, halves and the years beyond it included")
        void sameAsExactDecimalArithmetic() {
            java.util.SplittableRandom random = new java.util.SplittableRandom(20261201);
            java.util.List<Duration> durations = new java.util.ArrayList<>();
            long[] units = { 1_000L, 1_000_000L, 100_000_000L, 1_000_000_000L, 60_000_000_000L };
            for (long unit : units) {
                for (long k = 0; k < 2_000; k++) {
                    long nanos = random.nextLong(1, 4_000_000) * unit;
                    durations.add(Duration.ofNanos(nanos + unit / 2)); // exactly half-way: rounds up
                    durations.add(Duration.ofNanos(nanos + unit / 2 - 1));
                }
            }
            for (int i = 0; i < 50_000; i++) {
                durations.add(Duration.ofNanos(random.nextLong(1L << random.nextInt(1, 63))));
            }
            // either side of where the BigDecimal path takes over, and far beyond
            durations.add(Duration.ofSeconds(999_999_999L, 999_999_999L));
            durations.add(Duration.ofSeconds(1_000_000_000L));
            durations.add(Duration.ofSeconds(5_000_000_000L, 500_000_000L));
            for (Duration duration : durations) {
                assertThat(DurationParser.format(duration)).as("%s", duration).isEqualTo(exact(duration));
            }
        }

        /** The reference: the forms in BigDecimal arithmetic, as format did for every duration before. */
        private String exact(Duration duration) {
            java.math.BigDecimal nanos = new java.math.BigDecimal(duration.getSeconds())
                    .multiply(java.math.BigDecimal.valueOf(1_000_000_000L))
                    .add(java.math.BigDecimal.valueOf(duration.getNano()));
            if (nanos.compareTo(java.math.BigDecimal.valueOf(1_000)) < 0) {
                return nanos.toPlainString() + " ns";
            }
            java.util.function.LongUnaryOperator in = unit -> nanos.divide(java.math.BigDecimal.valueOf(unit), 0,
                    java.math.RoundingMode.HALF_UP).longValueExact();
            if (in.applyAsLong(1_000L) < 1_000) {
                return in.applyAsLong(1_000L) + " \u00b5s";
            }
            if (in.applyAsLong(1_000_000L) < 1_000) {
                return in.applyAsLong(1_000_000L) + " ms";
            }
            long tenths = in.applyAsLong(100_000_000L);
            if (tenths < 600) {
                return String.format(java.util.Locale.ROOT, "%d.%d s", tenths / 10, tenths % 10);
            }
            long seconds = in.applyAsLong(1_000_000_000L);
            long major = seconds < 3_600 ? seconds / 60 : in.applyAsLong(60_000_000_000L) / 60;
            long minor = seconds < 3_600 ? seconds % 60 : in.applyAsLong(60_000_000_000L) % 60;
            String[] names = seconds < 3_600 ? new String[] { "m", "s" } : new String[] { "h", "m" };
            return minor == 0 ? major + names[0] : major + names[0] + " " + minor + names[1];
        }

        @ParameterizedTest(name = "\"{0}\" round-trips")
        @ValueSource(strings = { "100 ns", "500 \u00b5s", "250 ms", "12.4 s", "1m 30s", "2h 5m", "2h", "1m" })
        void roundTrips(String text) {
            assertThat(DurationParser.format(DurationParser.parse(text))).isEqualTo(text);
        }
    }
}
