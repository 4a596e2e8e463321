package io.vitals.internal.units;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("GoFloatFormat")
class GoFloatFormatTests {

    // Expected values are what Go's fmt.Sprintf("%.<precision>g", value) prints.
    @ParameterizedTest(name = "%.{1}g of {0} is \"{2}\"")
    @CsvSource({
            "0.0,         4, 0",
            "-0.0,        4, -0",
            "1.5,         4, 1.5",
            "2.0,         4, 2",
            "5.0,         1, 5",
            "1000.0,      4, 1000",
            "1023.96875,  4, 1024",
            "999.6,       3, 1e+03",
            "999.4,       3, 999",
            "100000.0,    4, 1e+05",
            "123456.0,    4, 1.235e+05",
            "12345.0,     4, 1.234e+04",
            "2.5,         1, 2",
            "3.5,         1, 4",
            "2.48,        3, 2.48",
            "0.5,         3, 0.5",
            "0.0001234,   3, 0.000123",
            "0.00001234,  3, 1.23e-05",
            "1.0E100,     3, 1e+100",
            "-5.6289,     4, -5.629",
            "7.0,         0, 7",
            "NaN,         3, NaN",
            "Infinity,    3, +Inf",
            "-Infinity,   3, -Inf",
    })
    void formatsLikeGo(double value, int precision, String expected) {
        assertThat(GoFloatFormat.formatG(value, precision)).isEqualTo(expected);
    }
}
