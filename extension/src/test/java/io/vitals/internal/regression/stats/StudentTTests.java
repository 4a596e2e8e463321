package io.vitals.internal.regression.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Student's t distribution")
class StudentTTests {

    @ParameterizedTest(name = "t = {0}, df = {1}: two-sided p = {2}")
    @DisplayName("against table values and SciPy 1.17.1 (2 * scipy.stats.t.sf(t, df))")
    @CsvSource({
            // the 5 %, 1 % and 10 % rows of a two-sided t table, to the table's rounding of t
            "2.228, 10, 0.05001177181711132",
            "12.706, 1, 0.05000080235813319",
            "2.086, 20, 0.04999635445744019",
            "3.169, 10, 0.010004633364384856",
            "1.812, 10, 0.10007526206584715",
            // fractional degrees of freedom, as Welch's test produces them
            "2.5, 4.5, 0.059905686502200545",
            "0.5, 3.3, 0.6485350763995584",
            "6.0, 1.2, 0.07700256929871019",
            "-1.0, 7, 0.3506166628202074",
            "0.0, 5, 1.0",
            // far tails: the relative error stays small where 1 - cdf would have lost every digit
            "10.0, 30, 4.575251408229618e-11",
            "40.0, 18, 4.865261692304997e-19",
            // large df: the normal distribution's 1.96
            "1.96, 1000000, 0.04999606758526985"})
    void knownValues(double t, double df, double p) {
        assertThat(StudentT.twoSidedP(t, df)).isCloseTo(p, within(p * 1e-9));
    }

    @Test
    @DisplayName("df = 1 and df = 2 match their closed forms (Cauchy: 1/2 + atan(t)/pi; 1/2 + t / (2 sqrt(2 + t^2)))")
    void closedForms() {
        for (double t = -50; t <= 50; t += 0.25) {
            assertThat(StudentT.cdf(t, 1)).as("df = 1, t = %s", t)
                    .isCloseTo(0.5 + Math.atan(t) / Math.PI, within(1e-13));
            assertThat(StudentT.cdf(t, 2)).as("df = 2, t = %s", t)
                    .isCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), within(1e-13));
        }
    }

    @Test
    @DisplayName("the CDF is symmetric about 0, 1/2 at 0, and 0 or 1 at infinite t")
    void symmetry() {
        for (double df : new double[] {1, 2.5, 9, 40}) {
            assertThat(StudentT.cdf(0, df)).isEqualTo(0.5);
            for (double t = 0.1; t < 20; t *= 1.7) {
                assertThat(StudentT.cdf(-t, df)).isCloseTo(1 - StudentT.cdf(t, df), within(1e-14));
            }
            assertThat(StudentT.cdf(Double.POSITIVE_INFINITY, df)).isEqualTo(1.0);
            assertThat(StudentT.cdf(Double.NEGATIVE_INFINITY, df)).isEqualTo(0.0);
        }
    }

    @Test
    @DisplayName("ln Gamma matches factorials and Gamma(1/2) = sqrt(pi)")
    void logGamma() {
        double factorial = 1;
        for (int n = 1; n <= 30; n++) {
            assertThat(StudentT.logGamma(n)).as("ln %d!", n - 1).isCloseTo(Math.log(factorial), within(1e-12));
            factorial *= n;
        }
        assertThat(StudentT.logGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-14));
    }

    @Test
    @DisplayName("degrees of freedom that are not positive and finite, or a t that is NaN, are refused")
    void badArguments() {
        assertThatThrownBy(() -> StudentT.twoSidedP(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("degrees of freedom must be positive and finite: 0.0");
        assertThatThrownBy(() -> StudentT.twoSidedP(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("degrees of freedom must be positive and finite: NaN");
        assertThatThrownBy(() -> StudentT.twoSidedP(Double.NaN, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("t must be a number: NaN");
    }

    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.DisplayName("quantiles: the inverse of the CDF, against the t table (t(0.99, 4) = 3.747, t(0.99, 19) = 2.539)")
    void quantile() {
        org.assertj.core.api.Assertions.assertThat(StudentT.quantile(0.99, 4))
                .isCloseTo(3.7469, org.assertj.core.api.Assertions.within(1e-4));
        org.assertj.core.api.Assertions.assertThat(StudentT.quantile(0.99, 19))
                .isCloseTo(2.5395, org.assertj.core.api.Assertions.within(1e-4));
        org.assertj.core.api.Assertions.assertThat(StudentT.quantile(0.975, 10))
                .isCloseTo(2.2281, org.assertj.core.api.Assertions.within(1e-4));
        org.assertj.core.api.Assertions.assertThat(StudentT.quantile(0.5, 3)).isCloseTo(0,
                org.assertj.core.api.Assertions.within(1e-9));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StudentT.quantile(1, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
