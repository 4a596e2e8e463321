package io.vitals.internal.regression.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatisticsTests {

    @Nested
    @DisplayName("Mann–Whitney U")
    class MannWhitneyTests {

        @Test
        @DisplayName("Hollander & Wolfe's example (R's ?wilcox.test): U = 35, exact two-sided p = 0.2544")
        void textbookExample() {
            List<Double> x = List.of(0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46);
            List<Double> y = List.of(1.15, 0.88, 0.90, 0.74, 1.21);

            MannWhitney.Result result = MannWhitney.test(x, y);

            assertThat(result.u()).isEqualTo(35.0);
            assertThat(result.exact()).isTrue();
            // R: wilcox.test(x, y, alternative = "greater") gives p = 0.1272; two-sided doubles it
            assertThat(result.p()).isCloseTo(0.2544122544, within(1e-9));
        }

        @ParameterizedTest(name = "{0} values each, fully separated: p = {1}")
        @CsvSource({"3, 0.1", "4, 0.0285714285714", "5, 0.0079365079365"})
        @DisplayName("fully separated samples: p = 2 / C(2n, n)")
        void separated(int n, double expected) {
            List<Double> low = new ArrayList<>();
            List<Double> high = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                low.add((double) i);
                high.add(100.0 + i);
            }

            MannWhitney.Result result = MannWhitney.test(low, high);

            assertThat(result.u()).isZero();
            assertThat(result.p()).isCloseTo(expected, within(1e-9));
        }

        @Test
        @DisplayName("with ties: the tie-corrected normal approximation (SciPy asymptotic: p = 0.006373)")
        void ties() {
            List<Double> a = List.of(1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0);
            List<Double> b = List.of(3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 7.0, 7.0, 8.0);

            MannWhitney.Result result = MannWhitney.test(a, b);

            assertThat(result.exact()).isFalse();
            assertThat(result.u()).isEqualTo(7.5);
            assertThat(result.p()).isCloseTo(0.006373133838, within(1e-6));
        }

        @Test
        @DisplayName("identical values everywhere: p = 1, never a division by zero")
        void allEqual() {
            assertThat(MannWhitney.test(List.of(5.0, 5.0), List.of(5.0, 5.0, 5.0)).p()).isEqualTo(1.0);
        }
    }

    @Nested
    @DisplayName("bootstrap interval of the difference of medians")
    class BootstrapTests {

        @Test
        @DisplayName("the same seed gives the same interval, and it holds the true shift")
        void deterministic() {
            Random random = new Random(7);
            List<Double> before = normal(random, 20, 100, 5);
            List<Double> after = normal(random, 20, 120, 5);

            Bootstrap.Interval first = Bootstrap.medianDifference(after, before, 0.05, 42);
            Bootstrap.Interval second = Bootstrap.medianDifference(after, before, 0.05, 42);

            assertThat(first).isEqualTo(second);
            assertThat(first.low()).isLessThan(20).isGreaterThan(0);
            assertThat(first.high()).isGreaterThan(20);
        }
    }

    @Nested
    @DisplayName("change detection")
    class DetectorTests {

        private final ChangeDetector detector = new ChangeDetector(0.05);

        @Test
        @DisplayName("power: +20 % with 10 % CV noise, 10 vs 20 runs, is flagged in at least 90 of 100 seeded trials")
        void power() {
            // simulated with 2,000 trials (SciPy): 96 % of them are flagged
            assertThat(flagged(1.2, 10, 20)).isGreaterThanOrEqualTo(90);
        }

        @Test
        @DisplayName("power with fewer runs: 10 vs 10 at least 85 of 100, 5 vs 10 at least 65 of 100")
        void powerFewerRuns() {
            // simulated with 2,000 trials (SciPy): 93 % and 77 %; docs/ci.md has the table
            assertThat(flagged(1.2, 10, 10)).isGreaterThanOrEqualTo(85);
            assertThat(flagged(1.2, 5, 10)).isGreaterThanOrEqualTo(65);
        }

        @Test
        @DisplayName("false alarms: no shift is flagged in at most 10 of 100 seeded trials, however many runs")
        void noShift() {
            assertThat(flagged(1.0, 10, 10)).isLessThanOrEqualTo(10);
            assertThat(flagged(1.0, 5, 10)).isLessThanOrEqualTo(10);
            assertThat(flagged(1.0, 1, 10)).isLessThanOrEqualTo(10);
        }

        @Test
        @DisplayName("a significant change smaller than the minimum effect is not flagged")
        void minimumEffect() {
            Random random = new Random(3);
            List<Double> before = normal(random, 30, 100, 0.5);
            List<Double> after = normal(random, 30, 105, 0.5);

            ChangeDetector.Outcome outcome = detector.compare(after, before, 10, 0, 1).orElseThrow();

            assertThat(outcome.evidence().significant()).isTrue();
            assertThat(outcome.evidence().effectPercent()).isCloseTo(5, within(1.0));
            assertThat(outcome.changed()).isFalse();
        }

        @Test
        @DisplayName("one new value against five or more: the robust z-score decides, and says so")
        void robustZ() {
            List<Double> history = List.of(10.0, 10.5, 9.5, 10.2, 9.8, 10.1);

            ChangeDetector.Outcome outcome = detector.compare(List.of(14.0), history, 10, 0, 1).orElseThrow();

            assertThat(outcome.changed()).isTrue();
            assertThat(outcome.evidence().rule()).isEqualTo(Evidence.Rule.ROBUST_Z);
            // median 10.05, MAD 0.2 -> z = 3.95 / (1.4826 * 0.2) = 13.32
            assertThat(outcome.evidence().robustZ().getAsDouble()).isCloseTo(13.32, within(0.01));
            assertThat(outcome.evidence().describe()).isEqualTo("+39.3 %, robust z = 13.3, this build vs 6 earlier builds");
        }

        @Test
        @DisplayName("the summary line reads effect, interval, p-value and counts")
        void describe() {
            List<Double> before = List.of(10.0, 10.2, 9.9, 10.1, 10.3, 9.8, 10.05, 10.4, 9.7, 10.25);
            List<Double> after = List.of(12.0, 11.8, 12.3, 11.9, 12.1);

            Evidence evidence = detector.compare(after, before, 10, 0, 1).orElseThrow().evidence();

            assertThat(evidence.rule()).isEqualTo(Evidence.Rule.MANN_WHITNEY);
            assertThat(evidence.exact()).isTrue();
            // all five above all ten: exact two-sided p = 2 / C(15, 5) = 0.000666
            assertThat(evidence.p().getAsDouble()).isCloseTo(2.0 / 3003, within(1e-12));
            assertThat(evidence.describe()).matches("\\+19\\.1 % \\[\\+\\d+\\.\\d %, \\+\\d+\\.\\d %\\], p < 0\\.001,"
                    + " 5 measurements vs 10 earlier builds");
            assertThat(evidence.interval().orElseThrow().low()).isGreaterThan(10).isLessThan(19.1);
        }

        @Test
        @DisplayName("too few runs for a test: the tolerance alone decides, and the line says so")
        void tooFew() {
            Evidence evidence = detector.compare(List.of(13.0), List.of(10.0, 10.0), 10, 0, 1).orElseThrow()
                    .evidence();

            assertThat(evidence.rule()).isEqualTo(Evidence.Rule.TOLERANCE);
            assertThat(evidence.describe()).isEqualTo("+30.0 %, this build vs 2 earlier builds, too few for a test");
        }

        private int flagged(double shift, int nowRuns, int historyRuns) {
            int flagged = 0;
            for (int seed = 0; seed < 100; seed++) {
                Random random = new Random(seed);
                List<Double> history = normal(random, historyRuns, 10, 1);
                List<Double> now = normal(random, nowRuns, 10 * shift, shift);
                flagged += detector.compare(now, history, 10, 0.05, seed)
                        .filter(o -> o.changed() && o.evidence().effectPercent() > 0).isPresent() ? 1 : 0;
            }
            System.out.printf("shift x%.2f, %d vs %d runs: flagged in %d of 100 trials%n", shift, nowRuns,
                    historyRuns, flagged);
            return flagged;
        }
    }

    private static List<Double> normal(Random random, int n, double mean, double sd) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(mean + sd * random.nextGaussian());
        }
        return values;
    }
}
