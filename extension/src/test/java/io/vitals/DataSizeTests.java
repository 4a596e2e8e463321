package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("DataSize")
class DataSizeTests {

    private static final String ACCEPTED = "expected a non-negative number followed by a unit, e.g. 512MiB, 1.5GiB,"
            + " 200MB or 2g (units: B, KiB, MiB, GiB, TiB, or k, m, g, t, kB, KB, MB, GB, TB; every unit is binary,"
            + " 1024, as in docker run --memory: 1MB = 1MiB = 1,048,576 B)";

    @Nested
    @DisplayName("parse")
    class Parse {

        @ParameterizedTest(name = "\"{0}\" is {1} bytes")
        @CsvSource(delimiter = '|', value = {
                "0B              | 0",
                "980B            | 980",
                "980 B           | 980",
                "1KiB            | 1024",
                "512MiB          | 536870912",
                "1.5GiB          | 1610612736",
                "1.5 GiB         | 1610612736",
                "'  2 TiB  '     | 2199023255552",
                // KB/MB/GB/TB (and kB) used to be decimal; they are binary now because docker run --memory
                // (go-units RAMInBytes) reads them so, and a budget must mean what the same text means there.
                "1kB             | 1024",
                "1KB             | 1024",
                "100MB           | 104857600",
                "1.5GB           | 1610612736",
                "2TB             | 2199023255552",
                "1k              | 1024",
                "1K              | 1024",
                "2m              | 2097152",
                "2M              | 2097152",
                "2g              | 2147483648",
                "2G              | 2147483648",
                "1t              | 1099511627776",
                "1T              | 1099511627776",
                "0.5B            | 1",
                "0.4B            | 0",
                "1.0000001KiB    | 1024",
                "007MiB          | 7340032",
        })
        void acceptsEveryForm(String text, long bytes) {
            assertThat(DataSize.parse(text).toBytes()).isEqualTo(bytes);
        }

        @ParameterizedTest(name = "\"{0}\" = \"{1}\"")
        @CsvSource({ "1MB, 1MiB", "1m, 1MiB", "1M, 1MiB", "1kB, 1KiB", "1KB, 1KiB", "1k, 1KiB", "1GB, 1GiB",
                "1g, 1GiB", "1TB, 1TiB", "200MB, 200MiB" })
        @DisplayName("reads every unit as docker run --memory does: binary")
        void followsDocker(String docker, String iec) {
            // go-units RAMInBytes: "1MB", "1m" and "1MiB" are all 1,048,576 bytes; there are no decimal units
            assertThat(DataSize.parse(docker)).isEqualTo(DataSize.parse(iec));
        }

        @Test
        @DisplayName("writes an exact decimal amount in bytes")
        void decimalAmountsInBytes() {
            assertThat(DataSize.parse("1000000B").toBytes()).isEqualTo(1_000_000);
            assertThat(DataSize.parse("1MB").toString()).isEqualTo("1.0 MiB");
        }

        @Test
        @DisplayName("accepts the largest long")
        void acceptsLongMaxValue() {
            assertThat(DataSize.parse(Long.MAX_VALUE + "B").toBytes()).isEqualTo(Long.MAX_VALUE);
        }

        @ParameterizedTest(name = "rejects \"{0}\"")
        @ValueSource(strings = { "", "   ", "1.5 GB?", "5 Mb", "10 mib", "-1MiB", "+1MiB", "NaN", "NaNMiB",
                "Infinity", "512", "MiB", ".5MiB", "1.MiB", "1e3MiB", "1,5MiB", "1 5MiB", "1.5 G B", "1kib",
                "1Kib", "1kb", "1mb", "1gb", "1b", "1 bytes", "1PiB", "1PB", "1 MiB/s" })
        void rejectsMalformedText(String text) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataSize.parse(text))
                    .withMessage("Invalid data size '" + text + "': " + ACCEPTED);
        }

        @Test
        @DisplayName("states the accepted forms exactly as documented")
        void messageShape() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataSize.parse("1.5 GB?"))
                    .withMessage("Invalid data size '1.5 GB?': " + ACCEPTED);
            assertThat("expected " + DataSize.ACCEPTED_FORMS).isEqualTo(ACCEPTED);
        }

        @ParameterizedTest(name = "rejects overflowing \"{0}\"")
        @ValueSource(strings = { "9223372036854775808B", "8388608TiB", "99999999999999999999999999GB" })
        void rejectsOverflow(String text) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataSize.parse(text))
                    .withMessage("Invalid data size '" + text
                            + "': exceeds the largest supported size, 9223372036854775807 B");
        }

        @Test
        void rejectsNull() {
            assertThatThrownBy(() -> DataSize.parse(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("text must not be null");
        }
    }

    @Nested
    @DisplayName("factories")
    class Factories {

        @Test
        void binaryFactories() {
            assertThat(DataSize.ofBytes(7).toBytes()).isEqualTo(7);
            assertThat(DataSize.ofKiB(2).toBytes()).isEqualTo(2048);
            assertThat(DataSize.ofKiB(1.5).toBytes()).isEqualTo(1536);
            assertThat(DataSize.ofMiB(512)).isEqualTo(DataSize.parse("512MiB"));
            assertThat(DataSize.ofMiB(0.5).toBytes()).isEqualTo(524288);
            assertThat(DataSize.ofGiB(1)).isEqualTo(DataSize.parse("1GiB"));
            assertThat(DataSize.ofGiB(1.5)).isEqualTo(DataSize.parse("1.5GiB"));
        }

        @Test
        @DisplayName("round fractional bytes to the nearest byte")
        void roundFractionalBytes() {
            assertThat(DataSize.ofKiB(0.0004).toBytes()).isZero();
            assertThat(DataSize.ofKiB(0.0005).toBytes()).isEqualTo(1);
        }

        @Test
        void zeroIsCanonical() {
            assertThat(DataSize.ofBytes(0)).isSameAs(DataSize.ZERO);
            assertThat(DataSize.ZERO.toBytes()).isZero();
        }

        @Test
        @DisplayName("reject negative, non-finite and overflowing amounts, naming the amount")
        void rejectInvalidAmounts() {
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofBytes(-1))
                    .withMessage("data size must not be negative: -1 B");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofKiB(-1))
                    .withMessage("data size must not be negative: -1 KiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofMiB(-0.5))
                    .withMessage("data size must not be negative: -0.5 MiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofGiB(-2))
                    .withMessage("data size must not be negative: -2 GiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofGiB(Double.NaN))
                    .withMessage("data size must be a finite number: NaN GiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofKiB(Double.POSITIVE_INFINITY))
                    .withMessage("data size must be a finite number: Infinity KiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofGiB(Long.MAX_VALUE))
                    .withMessage("data size must not exceed 9223372036854775807 B: 9223372036854775807 GiB");
            assertThatIllegalArgumentException().isThrownBy(() -> DataSize.ofMiB(1e300))
                    .withMessage("data size must not exceed 9223372036854775807 B: 1.0E300 MiB");
        }
    }

    @Nested
    @DisplayName("conversions and arithmetic")
    class Arithmetic {

        @Test
        void convertsToLargerUnits() {
            DataSize size = DataSize.parse("1.5GiB");
            assertThat(size.toGiB()).isEqualTo(1.5);
            assertThat(size.toMiB()).isEqualTo(1536.0);
            assertThat(size.toKiB()).isEqualTo(1_572_864.0);
        }

        @Test
        void plusAndMinus() {
            DataSize a = DataSize.ofMiB(3);
            DataSize b = DataSize.ofMiB(1);
            assertThat(a.plus(b)).isEqualTo(DataSize.ofMiB(4));
            assertThat(a.minus(b)).isEqualTo(DataSize.ofMiB(2));
            assertThat(a.minus(a)).isEqualTo(DataSize.ZERO);
        }

        @Test
        @DisplayName("minus refuses to go negative, saturatingMinus clamps at zero")
        void minusBelowZero() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataSize.ofKiB(1).minus(DataSize.ofKiB(2)))
                    .withMessage("cannot subtract 2.0 KiB from 1.0 KiB: a data size must not be negative"
                            + " (use saturatingMinus to clamp at zero)");
            assertThat(DataSize.ofKiB(1).saturatingMinus(DataSize.ofKiB(2))).isEqualTo(DataSize.ZERO);
            assertThat(DataSize.ofKiB(3).saturatingMinus(DataSize.ofKiB(2))).isEqualTo(DataSize.ofKiB(1));
        }

        @Test
        void plusOverflowThrows() {
            assertThatThrownBy(() -> DataSize.ofBytes(Long.MAX_VALUE).plus(DataSize.ofBytes(1)))
                    .isInstanceOf(ArithmeticException.class);
        }

        @Test
        void comparisons() {
            DataSize small = DataSize.parse("1000000B");
            DataSize large = DataSize.parse("1MiB");
            assertThat(large.isGreaterThan(small)).isTrue();
            assertThat(small.isGreaterThan(large)).isFalse();
            assertThat(small.isLessThan(large)).isTrue();
            assertThat(small.isLessThan(small)).isFalse();
            assertThat(DataSize.max(small, large)).isSameAs(large);
            assertThat(DataSize.min(small, large)).isSameAs(small);
            assertThat(small).isLessThan(large);
            assertThat(small.compareTo(DataSize.ofBytes(1_000_000))).isZero();
        }

        @Test
        void ratio() {
            assertThat(DataSize.ofMiB(768).ratioTo(DataSize.ofGiB(1))).isEqualTo(0.75);
            assertThat(DataSize.ZERO.ratioTo(DataSize.ofGiB(1))).isZero();
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> DataSize.ofMiB(1).ratioTo(DataSize.ZERO))
                    .withMessage("cannot compute the ratio of 1.0 MiB to a zero data size");
        }

        @Test
        void equalsAndHashCodeByBytes() {
            assertThat(DataSize.parse("1KiB")).isEqualTo(DataSize.ofBytes(1024))
                    .hasSameHashCodeAs(DataSize.ofBytes(1024))
                    .isEqualTo(DataSize.parse("1k"))
                    .isEqualTo(DataSize.parse("1kB")) // binary, as in docker run --memory
                    .isNotEqualTo(DataSize.parse("1000B"))
                    .isNotEqualTo(null)
                    .isNotEqualTo(1024L);
        }
    }

    @Nested
    @DisplayName("toString")
    class ToString {

        @ParameterizedTest(name = "{0} bytes read \"{1}\"")
        @CsvSource(delimiter = '|', value = {
                "0                   | 0 B",
                "980                 | 980 B",
                "1023                | 1023 B",
                "1024                | 1.0 KiB",
                "1536                | 1.5 KiB",
                "2048                | 2.0 KiB",
                "1048575             | 1.0 MiB",
                "536870912           | 512.0 MiB",
                "1610612736          | 1.5 GiB",
                "1099511627776       | 1.0 TiB",
                "1125899906842624    | 1.0 PiB",
                "9223372036854775807 | 8.0 EiB",
        })
        void humanBinaryForm(long bytes, String expected) {
            assertThat(DataSize.ofBytes(bytes)).hasToString(expected);
        }

        @ParameterizedTest(name = "\"{0}\" round-trips")
        @ValueSource(strings = { "0 B", "980 B", "2.0 KiB", "1.5 KiB", "512.0 MiB", "1.5 GiB", "3.0 TiB" })
        void roundTrips(String text) {
            DataSize size = DataSize.parse(text);
            assertThat(size).hasToString(text);
            assertThat(DataSize.parse(size.toString())).isEqualTo(size);
        }
    }

    @Nested
    @DisplayName("docker formats")
    class DockerFormats {

        @ParameterizedTest(name = "{0} bytes read \"{1}\" like go-units BytesSize")
        @CsvSource({
                "0,                   0B",
                "916,                 916B",
                "1023,                1023B",
                "1024,                1KiB",
                "1536,                1.5KiB",
                "200704,              196KiB",
                "999600,              976.2KiB",
                "1048544,             1024KiB",
                "1048575,             1024KiB",
                "1048576,             1MiB",
                "5902434,             5.629MiB",
                "123456789,           117.7MiB",
                "2095944040,          1.952GiB",
                "1099511627776,       1TiB",
                "1125899906842624,    1PiB",
                "9223372036854775807, 8EiB",
        })
        void binary(long bytes, String expected) {
            assertThat(DataSize.ofBytes(bytes).toDockerBinaryString()).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0} bytes read \"{1}\" like go-units HumanSizeWithPrecision(v, 3)")
        @CsvSource({
                "0,                   0B",
                "916,                 916B",
                "999,                 999B",
                "1000,                1kB",
                "1536,                1.54kB",
                "2480,                2.48kB",
                "999499,              999kB",
                "999600,              1e+03kB",
                "4110000,             4.11MB",
                "123456789,           123MB",
                "1099511627776,       1.1TB",
                "9223372036854775807, 9.22EB",
        })
        void decimal(long bytes, String expected) {
            assertThat(DataSize.ofBytes(bytes).toDockerDecimalString()).isEqualTo(expected);
        }
    }
}
