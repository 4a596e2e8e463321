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

        @ParameterizedTest(name = "\"{0}\" round-trips")
        @ValueSource(strings = { "100 ns", "500 \u00b5s", "250 ms", "12.4 s", "1m 30s", "2h 5m", "2h", "1m" })
        void roundTrips(String text) {
            assertThat(DurationParser.format(DurationParser.parse(text))).isEqualTo(text);
        }
    }
}
