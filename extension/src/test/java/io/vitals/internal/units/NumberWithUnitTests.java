package io.vitals.internal.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.Energy;
import io.vitals.Percentage;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The number grammar sizes, energies and percentages share; each type's own tests cover its units. */
@DisplayName("NumberWithUnit")
class NumberWithUnitTests {

    @ParameterizedTest(name = "\"{0}\" is {1} and {2}")
    @CsvSource({
            "512MiB,   512,  MiB",
            "1.5 GiB,  1.5,  GiB",
            "12kJ,     12,   kJ",
            "20%,      20,   %",
            "12.5  %,  12.5, %",
    })
    void splits(String text, String number, String unit) {
        assertThat(NumberWithUnit.parse(text)).hasValue(new NumberWithUnit(number, unit));
    }

    @ParameterizedTest(name = "\"{0}\" is not a number with a unit")
    @ValueSource(strings = {"", "512", ".5MiB", "1.MiB", "1e3J", "-1%", " 1J", "1J ", "1 MiB/s", "20%%", "1k J"})
    void noMatch(String text) {
        assertThat(NumberWithUnit.parse(text)).isEmpty();
    }

    @Test
    @DisplayName("the number reads exactly or as the nearest double, a thousand digits as infinity")
    void values() {
        NumberWithUnit amount = NumberWithUnit.parse("0.1J").orElseThrow();
        assertThat(amount.exact()).isEqualByComparingTo(new BigDecimal("0.1"));
        assertThat(amount.value()).isEqualTo(0.1);
        assertThat(NumberWithUnit.parse("9".repeat(1000) + "J").orElseThrow().value()).isInfinite();
    }

    @Test
    @DisplayName("Energy and Percentage read it with their own units, case kept, and reject the others")
    void throughTheValueTypes() {
        assertThat(Energy.parse(" 1.5Wh ").toJoules()).isEqualTo(5400.0);
        assertThat(Energy.parse("2 kWh").toJoules()).isEqualTo(7.2e6);
        assertThat(Percentage.parse("12.5 %").value()).isEqualTo(12.5);
        for (String text : new String[] {"1mJ", "1kj", "20%", "9".repeat(400) + "MJ"}) {
            assertThatThrownBy(() -> Energy.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Invalid energy").hasMessageContaining(Energy.ACCEPTED_FORMS);
        }
        for (String text : new String[] {"20", "20J", "1" + "0".repeat(400) + "%"}) {
            assertThatThrownBy(() -> Percentage.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Invalid percentage");
        }
    }
}
