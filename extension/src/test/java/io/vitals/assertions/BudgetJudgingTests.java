package io.vitals.assertions;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How a budget is judged when the host cannot see its figure, and the note on a peak close to its budget: no
 * verdict may be a silent pass.
 */
@DisplayName("Judging budgets: unmeasurable figures and close calls")
class BudgetJudgingTests {

    private static BudgetResult judge(String attribute, String budget, ResourceUsage usage, boolean strict) {
        Metric metric = Metric.byAttribute(attribute).orElseThrow();
        Limit limit = Limit.parse(metric, budget);
        return Measurability.apply(BudgetEvaluator.evaluate(limit, usage), usage, strict);
    }

    @Test
    @DisplayName("blockWrite on cgroup v1 is marked not measurable, naming the host shape and the way out")
    void blockWriteOnCgroupV1() {
        ResourceUsage usage = Usages.usages().blockIo(DataSize.ZERO, DataSize.ZERO).build();

        BudgetResult check = judge("blockWrite", "1MiB", usage, false);

        assertThat(check.passed()).isTrue();
        assertThat(check.status()).isEqualTo(BudgetStatus.NOT_MEASURABLE);
        assertThat(check.actualText()).isEqualTo("not measurable here");
        assertThat(check.marginPercent()).isEmpty();
        assertThat(check.note()).hasValue("blockWrite cannot be measured here: cgroup v1 does not attribute buffered "
                + "writeback to the container that wrote, and its blkio controller counted nothing for this container; "
                + "run on a cgroup v2 host (set vitals.strict=true to fail such a budget)");
    }

    @Test
    @DisplayName("even a non-zero v1 write figure is only a lower bound, so it is not judged either")
    void nonZeroBlockWriteOnCgroupV1() {
        ResourceUsage usage = Usages.usages().blockIo(DataSize.ZERO, DataSize.ofMiB(64)).build();

        assertThat(judge("blockWrite", "1MiB", usage, false).status()).isEqualTo(BudgetStatus.NOT_MEASURABLE);
    }

    @Test
    @DisplayName("with vitals.strict=true, the budget fails and the failure line says why")
    void strictFails() {
        ResourceUsage usage = Usages.usages().blockIo(DataSize.ZERO, DataSize.ZERO).build();

        BudgetResult check = judge("blockRead", "1MiB", usage, true);

        assertThat(check.passed()).isFalse();
        assertThat(check.status()).isEqualTo(BudgetStatus.NOT_MEASURABLE);
        assertThat(BudgetEvaluator.describeBreach(check, usage)).isEqualTo("block read could not be checked against "
                + "the budget of 1MiB: blockRead cannot be measured here: cgroup v1's blkio controller counted 0 B for "
                + "this container, which cannot be told apart from I/O it does not account (storage without a block "
                + "device, buffered I/O); run on a cgroup v2 host with the host cgroup probe "
                + "(vitals.strict=true fails such a budget)");
    }

    @Test
    @DisplayName("block reads v1 did count, and every block figure on cgroup v2, are judged as usual")
    void measurableFigures() {
        ResourceUsage v1Reads = Usages.usages().blockIo(DataSize.ofMiB(3), DataSize.ZERO).build();
        ResourceUsage v2 = Usages.usages().probe(ProbeKind.HOST_CGROUP_V2).blockIo(DataSize.ZERO, DataSize.ZERO)
                .build();

        assertThat(judge("blockRead", "2MiB", v1Reads, true)).satisfies(check -> {
            assertThat(check.status()).isEqualTo(BudgetStatus.BREACHED);
            assertThat(check.actualText()).isEqualTo("3.0 MiB");
        });
        assertThat(judge("blockWrite", "1MiB", v2, true).status()).isEqualTo(BudgetStatus.OK);
        assertThat(judge("blockWrite", "1MiB", v2, true).actualText()).isEqualTo("0 B");
    }

    @Test
    @DisplayName("the Engine API's zero is not taken for a measurement")
    void engineApiZero() {
        ResourceUsage usage = Usages.usages().probe(ProbeKind.ENGINE_API).blockIo(DataSize.ZERO, DataSize.ZERO)
                .build();

        assertThat(judge("blockRead", "1MiB", usage, false).note().orElseThrow())
                .startsWith("blockRead cannot be measured here: the Docker Engine API reported 0 B");
    }

    @Test
    @DisplayName("a sampled peak within 5 % of its budget gets a note, even where the kernel keeps a high-water mark")
    void closeCallNote() {
        ResourceUsage usage = Usages.usages().peak(DataSize.ofMiB(99.9)).highWaterMark(DataSize.ofMiB(136.3))
                .build();

        BudgetResult check = judge("peakMemory", "100MiB", usage, false);

        assertThat(check.passed()).isTrue();
        assertThat(check.note()).hasValue("within 5.0% of the budget: a spike shorter than the sampling interval "
                + "could have crossed it unseen");
        assertThat(check.method()).isEqualTo("working set (MEM USAGE) sampled every 50 ms from host cgroup v1 files; "
                + "kernel high-water mark 136.3 MiB (not judged: it also counts page cache, e.g. of loaded native "
                + "libraries, so it can be far higher)");
    }
}
