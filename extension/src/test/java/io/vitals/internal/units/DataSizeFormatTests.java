package io.vitals.internal.units;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** DataSize's own tests cover whole sizes through toString and the docker formats; these the rest of the formats. */
@DisplayName("DataSizeFormat")
class DataSizeFormatTests {

    @ParameterizedTest(name = "{0} bytes read \"{1}\"")
    @CsvSource(delimiter = '|', value = {
            "0.5          | 0.5 B",
            "1.25         | 1.3 B",
            "980.0        | 980 B",
            "1023.96      | 1.0 KiB",
            "-1536.0      | -1.5 KiB",
            "-0.01        | 0 B",
            "-0.0         | 0 B",
            "1572864.5    | 1.5 MiB",
            "1.0E17       | 88.8 PiB",
            "1.0E19       | 8.7 EiB",
            "1.0E21       | 867.4 EiB",
    })
    @DisplayName("fractional, negative and huge byte counts, as DataRate prints them")
    void fractionalAndNegative(double bytes, String expected) {
        assertThat(DataSizeFormat.formatBinary(bytes)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} bytes: docker binary \"{1}\", decimal \"{2}\"")
    @CsvSource({
            "0,          0B,      0B",
            "916,        916B,    916B",
            "2480,       2.422KiB, 2.48kB",
            "1048544,    1024KiB, 1.05MB",
            "999600,     976.2KiB, 1e+03kB",
    })
    @DisplayName("docker's forms divide first, then round with Go's %g")
    void dockerForms(long bytes, String binary, String decimal) {
        assertThat(DataSizeFormat.dockerBinary(bytes)).isEqualTo(binary);
        assertThat(DataSizeFormat.dockerDecimal(bytes)).isEqualTo(decimal);
    }

    @Test
    @DisplayName("whole byte counts read as the exact quotient rounded half up, as BigDecimal arithmetic gives")
    void wholeBytesMatchExactDecimalRounding() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(20261201);
        java.util.List<Long> counts = new java.util.ArrayList<>();
        for (long b = 0; b <= 3000; b++) {
            counts.add(b);
        }
        for (int unit = 1; unit <= 5; unit++) {
            long size = 1L << (10 * unit);
            for (long j = -64; j <= 64; j++) {
                counts.add(size * 1024 + j); // where 1023.95 rounds to 1024.0 and moves to the next unit
                counts.add(size + j);
                counts.add(size * 3 / 2 + j);
                counts.add(size / 20 * 3 + j); // near the half tenth of a unit
            }
        }
        for (int i = 0; i < 100_000; i++) {
            counts.add(random.nextLong(1L << random.nextInt(1, 57)));
        }
        for (long count : counts) {
            assertThat(DataSizeFormat.formatBinary(count)).as("%d bytes", count).isEqualTo(exact(count));
            assertThat(DataSizeFormat.formatBinary(-count)).as("-%d bytes", count).isEqualTo(exact(-count));
        }
    }

    /** The reference: exact decimal arithmetic, as formatBinary did for every count before its integer path. */
    private String exact(double bytes) {
        java.math.BigDecimal value = new java.math.BigDecimal(Math.abs(bytes));
        java.math.BigDecimal base = java.math.BigDecimal.valueOf(1024);
        String[] units = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
        int unit = 0;
        while (unit < units.length - 1
                && value.setScale(1, java.math.RoundingMode.HALF_UP).compareTo(base) >= 0) {
            value = value.divide(base);
            unit++;
        }
        java.math.BigDecimal rounded = value.setScale(1, java.math.RoundingMode.HALF_UP);
        if (unit == 0 && rounded.stripTrailingZeros().scale() <= 0) {
            rounded = rounded.setScale(0, java.math.RoundingMode.UNNECESSARY);
        }
        return (bytes < 0 && rounded.signum() != 0 ? "-" : "") + rounded.toPlainString() + " " + units[unit];
    }
}
