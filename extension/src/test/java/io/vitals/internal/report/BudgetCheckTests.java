package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;

import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BudgetCheckTests {

    private static BudgetCheck breached(String attribute, String limit, double limitValue, String actual,
            double actualValue) {
        return new BudgetCheck(attribute, limit, limitValue, actual, actualValue, false, OptionalDouble.empty(),
                "sampled every 50 ms", Optional.empty(), Optional.empty());
    }

    @Test
    @DisplayName("a phase's floor reads '<' like the whole test's: memoryHeadroom[train] 12.0% < 20%")
    void phaseFloor() {
        BudgetCheck check = breached("memoryHeadroom[train]", "20%", 20, "12.0%", 12);

        assertThat(check.breach()).isEqualTo("memoryHeadroom[train] 12.0% < 20%");
        assertThat(check.metric()).contains(Metric.byAttribute("memoryHeadroom").orElseThrow());
        assertThat(breached("memoryHeadroom", "20%", 20, "12.0%", 12).breach())
                .isEqualTo("memoryHeadroom 12.0% < 20%");
    }

    @Test
    @DisplayName("a phase's ceiling reads '>', and a name this version does not know stays a ceiling")
    void phaseCeilingAndUnknown() {
        assertThat(breached("peakMemory[load data]", "1GiB", 1 << 30, "1.2 GiB", 1.2 * (1 << 30)).breach())
                .isEqualTo("peakMemory[load data] 1.2 GiB > 1GiB");
        assertThat(breached("somethingNew[train]", "1", 1, "2", 2).breach()).isEqualTo("somethingNew[train] 2 > 1");
        assertThat(breached("somethingNew[train]", "1", 1, "2", 2).metric()).isEmpty();
    }
}
