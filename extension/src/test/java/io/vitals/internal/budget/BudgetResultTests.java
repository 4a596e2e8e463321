package io.vitals.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;

import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BudgetResultTests {

    private static BudgetResult breached(Metric metric, String limit, double actual) {
        Limit parsed = Limit.parse(metric, limit);
        return new BudgetResult(metric, Optional.empty(), BudgetStatus.BREACHED, parsed, OptionalDouble.of(actual),
                OptionalDouble.empty(), "sampled every 50 ms", Optional.empty(), Optional.empty(), false);
    }

    @Test
    @DisplayName("a phase's floor reads '<' like the whole test's: memoryHeadroom[train] 12.0% < 20%")
    void phaseFloor() {
        BudgetResult whole = breached(Metric.MEMORY_HEADROOM, "20%", 12);
        BudgetResult train = whole.inPhase("train");

        assertThat(train.breach()).isEqualTo("memoryHeadroom[train] 12.0% < 20%");
        assertThat(whole.breach()).isEqualTo("memoryHeadroom 12.0% < 20%");
        assertThat(train.name()).isEqualTo("memoryHeadroom[train]");
        assertThat(train.metric()).isEqualTo(Metric.MEMORY_HEADROOM);
        assertThat(train.phase()).hasValue("train");
        assertThat(train.direction()).isEqualTo(Direction.FLOOR);
        assertThat(train.passed()).isFalse();
    }

    @Test
    @DisplayName("a phase's ceiling reads '>'")
    void phaseCeiling() {
        BudgetResult loading = breached(Metric.PEAK_MEMORY, "1GiB", 1.2 * (1 << 30)).inPhase("load data");

        assertThat(loading.breach()).isEqualTo("peakMemory[load data] 1.2 GiB > 1GiB");
        assertThat(loading.direction()).isEqualTo(Direction.CEILING);
    }

    @Test
    @DisplayName("a figure not known or not measurable here is shown as such, with the budget in brackets")
    void withoutFigure() {
        Limit limit = Limit.parse(Metric.MEMORY_HEADROOM, "20%");
        BudgetResult unknown = BudgetResult.unknown(limit, Optional.of("train"), "phase never marked",
                "the test never called mark(\"train\")");
        BudgetResult unmeasurable = breached(Metric.BLOCK_WRITE, "200MiB", 0).notMeasurable("cgroup v1", false);

        assertThat(unknown.breach()).isEqualTo("memoryHeadroom[train] unknown (budget 20%)");
        assertThat(unknown.passed()).isFalse();
        assertThat(unmeasurable.breach()).isEqualTo("blockWrite not measurable here (budget 200MiB)");
        assertThat(unmeasurable.passed()).isTrue();
        assertThat(unmeasurable.marginPercent()).isEmpty();
        // what the host counted stays on record
        assertThat(unmeasurable.actual()).hasValue(0);
        assertThat(breached(Metric.BLOCK_WRITE, "200MiB", 0).notMeasurable("cgroup v1", true).passed()).isFalse();
    }

    @Test
    @DisplayName("a result cannot pass without a figure, nor judge one metric's figure by another's limit")
    void consistent() {
        Limit headroom = Limit.parse(Metric.MEMORY_HEADROOM, "20%");

        assertThatIllegalArgumentException().isThrownBy(() -> new BudgetResult(Metric.MEMORY_HEADROOM,
                Optional.empty(), BudgetStatus.OK, headroom, OptionalDouble.empty(), OptionalDouble.empty(), "m",
                Optional.empty(), Optional.empty(), false));
        assertThatIllegalArgumentException().isThrownBy(() -> new BudgetResult(Metric.PEAK_MEMORY,
                Optional.empty(), BudgetStatus.BREACHED, headroom, OptionalDouble.of(1), OptionalDouble.empty(), "m",
                Optional.empty(), Optional.empty(), false));
    }
}
