package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Percentage")
class PercentageTests {

    @Nested
    @DisplayName("parse")
    class Parse {

        @ParameterizedTest(name = "\"{0}\" is {1} percent")
        @CsvSource(delimiter = '|', value = {
                "0%        | 0.0",
                "20%       | 20.0",
                "150%      | 150.0",
                "12.5%     | 12.5",
                "100 %     | 100.0",
                "' 7.25% ' | 7.25",
                "1000%     | 1000.0",
        })
        void acceptsEveryForm(String text, double percent) {
            assertThat(Percentage.parse(text).value()).isEqualTo(percent);
        }

        @ParameterizedTest(name = "rejects \"{0}\"")
        @ValueSource(strings = { "", " ", "20", "%", "-20%", "+20%", "NaN%", "NaN", "Infinity%", ".5%", "5.%",
                "1e2%", "20 %%", "20 percent", "20%!", "0.2", "20 %s" })
        void rejectsMalformedText(String text) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Percentage.parse(text))
                    .withMessage("Invalid percentage '" + text + "': expected a non-negative number followed by"
                            + " '%', e.g. 20%, 150% or 12.5% (for CPU, 100% is one full core)");
        }

        @Test
        @DisplayName("rejects a number too large for a double")
        void rejectsHugeNumbers() {
            String text = "1".repeat(400) + "%";
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Percentage.parse(text))
                    .withMessage("Invalid percentage '" + text + "': expected " + Percentage.ACCEPTED_FORMS);
        }
    }

    @Nested
    @DisplayName("factories and accessors")
    class Factories {

        @Test
        void ofAndFraction() {
            Percentage twenty = Percentage.of(20);
            assertThat(twenty.value()).isEqualTo(20.0);
            assertThat(twenty.fraction()).isEqualTo(0.2);
            assertThat(Percentage.ofFraction(0.2)).isEqualTo(twenty);
            assertThat(Percentage.of(150).fraction()).isEqualTo(1.5);
        }

        @Test
        void negativeZeroIsZero() {
            assertThat(Percentage.of(-0.0)).isEqualTo(Percentage.of(0.0));
        }

        @Test
        void rejectsInvalidValues() {
            assertThatIllegalArgumentException().isThrownBy(() -> Percentage.of(-1))
                    .withMessage("percentage must be a finite, non-negative number: -1.0");
            assertThatIllegalArgumentException().isThrownBy(() -> Percentage.of(Double.NaN))
                    .withMessage("percentage must be a finite, non-negative number: NaN");
            assertThatIllegalArgumentException().isThrownBy(() -> Percentage.of(Double.POSITIVE_INFINITY))
                    .withMessage("percentage must be a finite, non-negative number: Infinity");
            assertThatIllegalArgumentException().isThrownBy(() -> Percentage.ofFraction(-0.1))
                    .withMessage("fraction must be a finite, non-negative number: -0.1");
        }

        @Test
        void comparisons() {
            Percentage low = Percentage.parse("20%");
            Percentage high = Percentage.parse("150%");
            assertThat(low).isLessThan(high);
            assertThat(low.isLessThan(high)).isTrue();
            assertThat(high.isGreaterThan(low)).isTrue();
            assertThat(low.isGreaterThan(low)).isFalse();
            assertThat(low).isEqualTo(Percentage.of(20)).hasSameHashCodeAs(Percentage.of(20)).isNotEqualTo(high);
        }
    }

    @Nested
    @DisplayName("formatting")
    class Formatting {

        @ParameterizedTest(name = "{0} reads \"{1}\" and \"{2}\" docker-style")
        @CsvSource({
                "20,     20.0%,   20.00%",
                "12.5,   12.5%,   12.50%",
                "150,    150.0%,  150.00%",
                "0,      0.0%,    0.00%",
                "33.333, 33.3%,   33.33%",
        })
        void toStringAndDockerString(double percent, String text, String docker) {
            assertThat(Percentage.of(percent)).hasToString(text);
            assertThat(Percentage.of(percent).toDockerString()).isEqualTo(docker);
        }

        @ParameterizedTest(name = "\"{0}\" round-trips")
        @ValueSource(strings = { "20.0%", "12.5%", "150.0%", "0.0%" })
        void roundTrips(String text) {
            assertThat(Percentage.parse(text)).hasToString(text);
        }
    }
}
