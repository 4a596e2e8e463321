package io.vitals.internal.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.Arrays;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** What each unit says about its own values: the suggested-budget rounding and the near-miss hints. */
@DisplayName("Unit")
class UnitTests {

    private static final double MIB = 1024 * 1024;

    @ParameterizedTest(name = "{0} {1} rounds up to {2}")
    @CsvSource(delimiter = '|', textBlock = """
            SIZE     | 315097088  | 310MiB    | 325058560
            SIZE     | 5000       | 5KiB      | 5120
            SIZE     | 0          | 1KiB      | 1024
            DURATION | 16.2       | 17s       | 17
            DURATION | 0.8412     | 850ms     | 0.85
            PERCENT  | 152.3      | 160%      | 160
            COUNT    | 40.1       | 41        | 41
            COUNT    | 0          | 1         | 1
            RATE     | 1048576    | 60MiB/min | 1048576
            ENERGY   | 12345      | 13kJ      | 13000
            ENERGY   | 950.2      | 960J      | 960
            """)
    @DisplayName("rounds a suggested budget up to two digits in a unit a person writes, and the text parses")
    void roundsUp(Unit unit, double raw, String text, double value) {
        BudgetText rounded = unit.roundUp(raw);
        assertThat(rounded).isEqualTo(new BudgetText(text, value));
        assertThat(unit.parse(rounded.text())).isEqualTo(value, offset(1e-9));
    }

    @ParameterizedTest(name = "{0} \"{1}\": {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ENERGY | 12kj   | did you mean 12kJ?
            ENERGY | 12     | a unit is required: 12kJ?
            ENERGY | 1.5wh  | did you mean 1.5Wh?
            SIZE   | 200    | a unit is required: 200MiB?
            """)
    @DisplayName("hints at a near miss")
    void hints(Unit unit, String text, String hint) {
        assertThat(unit.nearMiss(text)).hasValue(hint);
    }

    @ParameterizedTest
    @EnumSource(Unit.class)
    @DisplayName("every unit's suggested budget for a typical value parses back to the value it claims")
    void everyUnitRoundsToParsableText(Unit unit) {
        BudgetText rounded = unit.roundUp(123.4);
        assertThat(unit.parse(rounded.text())).isCloseTo(rounded.value(),
                offset(1e-9));
        assertThat(rounded.value()).isGreaterThanOrEqualTo(123.4);
    }

    @Test
    @DisplayName("a count has no unit to get wrong, so no hint")
    void countHasNoHint() {
        assertThat(Unit.COUNT.nearMiss("many")).isEmpty();
    }

    @Test
    @DisplayName("docker's forms for sizes and percentages; every other unit as reports print it")
    void dockerForms() {
        assertThat(Unit.SIZE.formatDocker(5.5 * MIB)).isEqualTo("5.5MiB");
        assertThat(Unit.PERCENT.formatDocker(7.0912)).isEqualTo("7.09%");
        assertThat(Arrays.stream(Unit.values()).filter(u -> u != Unit.SIZE && u != Unit.PERCENT))
                .allSatisfy(u -> assertThat(u.formatDocker(12)).isEqualTo(u.format(12)));
    }
}
