package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("DataRate")
class DataRateTests {

    @Nested
    @DisplayName("parse")
    class Parse {

        @ParameterizedTest(name = "\"{0}\" is {1} bytes per second")
        @CsvSource(delimiter = '|', value = {
                "10MiB/min          | 174762.6666666667",
                // the size part follows DataSize: every unit binary, as in docker run --memory (MB used to be SI)
                "1MB/s              | 1048576",
                "500KiB/h           | 142.2222222222222",
                "1.5B/s             | 1.5",
                "'  60 kB / min  '  | 1024",
                "2g/h               | 596523.2355555556",
                "0B/s               | 0",
        })
        void acceptsEveryForm(String text, double bytesPerSecond) {
            assertThat(DataRate.parse(text).bytesPerSecond()).isCloseTo(bytesPerSecond, within(1e-9));
        }

        @Test
        @DisplayName("reads the size with the same binary rule as DataSize")
        void sameRuleAsDataSize() {
            assertThat(DataRate.parse("1MB/s")).isEqualTo(DataRate.parse("1MiB/s"));
            assertThat(DataRate.parse("300MB/min").bytesPerSecond())
                    .isEqualTo(DataSize.parse("300MiB").toBytes() / 60.0);
            assertThat(DataRate.parse("1000000B/s").bytesPerSecond()).isEqualTo(1_000_000.0);
        }

        @Test
        @DisplayName("is equal whatever unit of time it was written in")
        void equalAcrossTimeUnits() {
            assertThat(DataRate.parse("60B/min")).isEqualTo(DataRate.parse("1B/s"))
                    .hasSameHashCodeAs(DataRate.parse("1B/s"));
            assertThat(DataRate.parse("3600KiB/h")).isEqualTo(DataRate.parse("1KiB/s"));
            assertThat(DataRate.parse("1MiB/s")).isNotEqualTo(DataRate.parse("1000000B/s")).isNotEqualTo(null);
        }

        @ParameterizedTest(name = "rejects \"{0}\"")
        @ValueSource(strings = { "", "10MiB", "10MiB/", "/min", "10/min", "10MiB/m", "10MiB/sec", "10MiB/minute",
                "10MiB/H", "10MiB/S", "-1MiB/s", "10 mib/min", "10MiB per min", "10MiB/min/s", "NaN/s",
                "10MiB//min", "MiB/s", ".5MiB/s" })
        void rejectsMalformedText(String text) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.parse(text))
                    .withMessage("Invalid data rate '" + text + "': expected a non-negative data size, '/' and a"
                            + " time unit, e.g. 10MiB/min, 1MiB/s or 500KiB/h (time units: s, min, h; size units as"
                            + " for sizes, every one binary: 1MB/s = 1MiB/s)");
        }
    }

    @Nested
    @DisplayName("factories")
    class Factories {

        @Test
        void ofSizePerDuration() {
            assertThat(DataRate.of(DataSize.ofMiB(10), Duration.ofMinutes(1))).isEqualTo(DataRate.parse("10MiB/min"))
                    .hasToString("10.0 MiB/min");
            assertThat(DataRate.of(DataSize.ofMiB(1), Duration.ofSeconds(2))).hasToString("512.0 KiB/s");
            assertThat(DataRate.of(DataSize.ofMiB(1), Duration.ofMinutes(2))).hasToString("512.0 KiB/min");
            assertThat(DataRate.of(DataSize.ofGiB(1), Duration.ofHours(2))).hasToString("512.0 MiB/h");
            assertThat(DataRate.of(DataSize.ofKiB(1), Duration.ofMillis(500)).bytesPerSecond()).isEqualTo(2048.0);
        }

        @Test
        void ofRejectsNonPositivePeriods() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.of(DataSize.ofMiB(1), Duration.ZERO))
                    .withMessage("rate period must be positive: PT0S");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.of(DataSize.ofMiB(1), Duration.ofSeconds(-1)))
                    .withMessage("rate period must be positive: PT-1S");
        }

        @Test
        @DisplayName("ofBytesPerSecond accepts negative rates and shows them per minute")
        void ofBytesPerSecond() {
            assertThat(DataRate.ofBytesPerSecond(1024).bytesPerSecond()).isEqualTo(1024.0);
            assertThat(DataRate.ofBytesPerSecond(1024)).hasToString("60.0 KiB/min");
            assertThat(DataRate.ofBytesPerSecond(-8738.133333333333)).hasToString("-512.0 KiB/min");
            assertThat(DataRate.ofBytesPerSecond(-0.0)).isEqualTo(DataRate.ofBytesPerSecond(0.0))
                    .hasToString("0 B/min");
        }

        @Test
        void ofBytesPerSecondRejectsNonFiniteRates() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.ofBytesPerSecond(Double.NaN))
                    .withMessage("rate must be a finite number of bytes per second: NaN");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.ofBytesPerSecond(Double.NEGATIVE_INFINITY))
                    .withMessage("rate must be a finite number of bytes per second: -Infinity");
        }
    }

    @Nested
    @DisplayName("amounts and comparisons")
    class Amounts {

        @Test
        void perDuration() {
            DataRate rate = DataRate.parse("10MiB/min");
            assertThat(rate.per(Duration.ofMinutes(3))).isEqualTo(DataSize.ofMiB(30));
            assertThat(rate.per(Duration.ofSeconds(30))).isEqualTo(DataSize.ofMiB(5));
            assertThat(rate.per(Duration.ZERO)).isEqualTo(DataSize.ZERO);
            assertThat(DataRate.parse("1.5B/s").per(Duration.ofSeconds(3))).isEqualTo(DataSize.ofBytes(5));
        }

        @Test
        void perRejectsNegativeDurationsAndRates() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataRate.parse("1MiB/s").per(Duration.ofSeconds(-1)))
                    .withMessage("duration must not be negative: PT-1S");
            assertThatIllegalStateException()
                    .isThrownBy(() -> DataRate.ofBytesPerSecond(-1024).per(Duration.ofSeconds(1)))
                    .withMessage("cannot express the amount of negative rate -60.0 KiB/min as a data size");
        }

        @Test
        void comparisons() {
            DataRate slow = DataRate.parse("10MiB/min");
            DataRate fast = DataRate.parse("1MiB/s");
            assertThat(fast.isGreaterThan(slow)).isTrue();
            assertThat(slow.isLessThan(fast)).isTrue();
            assertThat(slow.isGreaterThan(slow)).isFalse();
            assertThat(DataRate.ofBytesPerSecond(-1)).isLessThan(DataRate.parse("0B/s"));
        }
    }

    @Nested
    @DisplayName("toString")
    class ToString {

        @ParameterizedTest(name = "\"{0}\" reads \"{1}\"")
        @CsvSource({
                "10MiB/min,  10.0 MiB/min",
                "1MB/s,      1.0 MiB/s",
                "500KiB/h,   500.0 KiB/h",
                "1.5B/s,     1.5 B/s",
                "980B/s,     980 B/s",
                "2g/h,       2.0 GiB/h",
        })
        void keepsTheParsedUnitOfTime(String text, String expected) {
            assertThat(DataRate.parse(text)).hasToString(expected);
        }

        @Test
        void withDisplayUnit() {
            DataRate rate = DataRate.parse("1MiB/s");
            assertThat(rate.withDisplayUnit(ChronoUnit.MINUTES)).hasToString("60.0 MiB/min").isEqualTo(rate);
            assertThat(rate.withDisplayUnit(ChronoUnit.HOURS)).hasToString("3.5 GiB/h");
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> rate.withDisplayUnit(ChronoUnit.DAYS))
                    .withMessage("display unit must be SECONDS, MINUTES or HOURS: Days");
        }

        @ParameterizedTest(name = "\"{0}\" round-trips")
        @ValueSource(strings = { "10.0 MiB/min", "1.5 GiB/h", "512.0 KiB/s", "980 B/s" })
        void roundTrips(String text) {
            DataRate rate = DataRate.parse(text);
            assertThat(rate).hasToString(text);
            assertThat(DataRate.parse(rate.toString())).isEqualTo(rate);
        }
    }
}
