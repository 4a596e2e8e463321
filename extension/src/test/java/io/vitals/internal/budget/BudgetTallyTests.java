package io.vitals.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One meaning of x/y in every report: breached of judged; a budget nobody could measure counted apart. */
@DisplayName("Budget tally")
class BudgetTallyTests {

    private static final BudgetResult KEPT = judged(Metric.CPU_TIME, "60s", 60, 30, BudgetStatus.OK);
    private static final BudgetResult BROKEN = judged(Metric.PEAK_MEMORY, "50MiB", 50 << 20, 117 << 20,
            BudgetStatus.BREACHED);

    @Test
    @DisplayName("N/M counts the broken budgets of those judged")
    void breachedOfJudged() {
        assertThat(BudgetTally.of(List.of(KEPT, KEPT)).text(true)).isEqualTo("0/2 breached");
        assertThat(BudgetTally.of(List.of(BROKEN, KEPT, KEPT)).text(true)).isEqualTo("1/3 breached: peakMemory");
        assertThat(BudgetTally.of(List.of(BROKEN, KEPT)).text(false)).isEqualTo("1/2 breached");
    }

    @Test
    @DisplayName("a budget this host cannot measure is never in M and never ok")
    void notMeasurableApart() {
        assertThat(BudgetTally.of(List.of(notMeasurable(false))).text(true))
                .isEqualTo("0 judged, 1 not measurable: blockWrite");
        assertThat(BudgetTally.of(List.of(KEPT, notMeasurable(false))).text(true))
                .isEqualTo("0/1 breached, 1 not measurable: blockWrite");
        assertThat(BudgetTally.of(List.of(BROKEN, notMeasurable(false))).text(true))
                .isEqualTo("1/1 breached: peakMemory; 1 not measurable: blockWrite");
        assertThat(BudgetTally.of(List.of(KEPT, notMeasurable(false))).text(false))
                .isEqualTo("0/1 breached, 1 not measurable");
        assertThat(BudgetTally.of(List.of(notMeasurable(true))).text(true))
                .isEqualTo("0 judged, 1 not measurable (vitals.strict: fails the test): blockWrite");
    }

    @Test
    @DisplayName("no budgets: an empty tally")
    void empty() {
        assertThat(BudgetTally.of(List.of()).isEmpty()).isTrue();
        assertThat(BudgetTally.of(List.of()).text(true)).isEmpty();
    }

    private static BudgetResult judged(Metric metric, String text, double limit, double actual,
            BudgetStatus status) {
        return new BudgetResult(metric, Optional.empty(), status, new Limit(metric, text, limit),
                OptionalDouble.of(actual), OptionalDouble.of(100 * (actual - limit) / limit), "sampled",
                Optional.empty(), Optional.empty(), false);
    }

    static BudgetResult notMeasurable(boolean strict) {
        return new BudgetResult(Metric.BLOCK_WRITE, Optional.empty(), BudgetStatus.NOT_MEASURABLE,
                new Limit(Metric.BLOCK_WRITE, "10MiB", 10 << 20), OptionalDouble.of(0), OptionalDouble.empty(),
                "blkio", Optional.empty(), Optional.of("cgroup v1 does not count buffered writes"), strict);
    }
}
