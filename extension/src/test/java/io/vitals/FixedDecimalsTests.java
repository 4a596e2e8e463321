package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class FixedDecimalsTests {

    @ParameterizedTest(name = "{0} decimals")
    @ValueSource(ints = { 1, 2 })
    void isExactlyWhatStringFormatPrints(int decimals) {
        List<Double> values = new ArrayList<>();
        // every half-way case of one more decimal, both signs, across the range of percentages and beyond
        for (int k = -20_000; k <= 300_000; k++) {
            values.add(k / 20.0);
            values.add(k / 200.0);
            values.add(k / 2000.0);
            values.add(k * 0.15);
        }
        Random random = new Random(20261201);
        for (int i = 0; i < 200_000; i++) {
            values.add(random.nextDouble() * 200);
            values.add(random.nextGaussian() * 1e4);
            values.add(Math.exp(random.nextDouble() * 40 - 15)); // 3e-7 .. 8e10: both fallbacks too
        }
        values.addAll(List.of(0.0, -0.0, -0.04, -0.004, 0.05, 0.005, 0.15, 0.015, 9.95, 99.95, 99.995, 999.95,
                0.001, 0.00099, 9_999_999.95, 9_999_999.995, 1e7, 1e-300, Double.MIN_VALUE, Double.MAX_VALUE,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        List<String> differing = new ArrayList<>();
        for (double value : values) {
            String expected = String.format(Locale.ROOT, "%." + decimals + "f", value);
            String actual = FixedDecimals.format(value, decimals);
            if (!expected.equals(actual) && differing.size() < 10) {
                differing.add(value + ": expected " + expected + ", got " + actual);
            }
        }
        assertThat(differing).as("values formatted differently from String.format, of " + values.size())
                .isEmpty();
    }

    @Test
    void roundsUpThroughEveryNine() {
        assertThat(FixedDecimals.format(99.96, 1)).isEqualTo("100.0");
        assertThat(FixedDecimals.format(-9.996, 2)).isEqualTo("-10.00");
        assertThat(FixedDecimals.format(0.05, 1)).isEqualTo("0.1");
    }

    @Test
    void acceptsOneOrTwoDecimalsOnly() {
        assertThatThrownBy(() -> FixedDecimals.format(1, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 or 2");
    }
}
