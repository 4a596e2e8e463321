package io.vitals.assertions;

// tag::imports[]
import static io.vitals.assertions.VitalsAssertions.assertThat;
// end::imports[]

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;

import java.time.Duration;

import org.assertj.core.api.junit.jupiter.InjectSoftAssertions;
import org.assertj.core.api.junit.jupiter.SoftAssertionsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The examples of {@code docs/assertions.md}, compiled and run: each tagged region is copied verbatim into the
 * page. {@code usage} stands for what {@code ResourceMonitor} or the report gives a test; here it is the fixture of
 * {@link Usages} (peak 1.7 GiB under a 2 GiB limit, 30 s of CPU over 20 s, 40 PIDs, phases load/train/evaluate).
 */
@ExtendWith(SoftAssertionsExtension.class)
class AssertionsDocExamplesTests {

    private final ResourceUsage usage = Usages.usage();

    @InjectSoftAssertions
    private VitalsSoftAssertions softly;

    @Test
    void gpu() {
        // the fixture has no GPU figures, so without whereMeasurable() a GPU check fails, naming why
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> assertThat(usage).hasPeakGpuMemoryAtMost("4GiB"))
                .hasMessageContaining("this host cannot measure it");
        // tag::gpu[]
        assertThat(usage).whereMeasurable() // where no GPU is visible, GPU checks are skipped
                .hasPeakGpuMemoryAtMost("4GiB")
                .hasGpuEnergyAtMost("1.5Wh");
        // end::gpu[]
    }

    /** Not run: the annotation of docs/gpu.md, compiled so that its attributes and values stay valid. */
    // tag::gpu-budget[]
    @io.vitals.ResourceBudget(peakGpuMemory = "4GiB", averageGpuUtilization = "95%", gpuEnergy = "12kJ")
    // end::gpu-budget[]
    static class GpuBudgetExample {
    }

    @Test
    void peak_memory() {
        // tag::peak-memory[]
        assertThat(usage).hasPeakMemoryAtMost("1.8GiB")
                .hasPeakMemoryAtMost(DataSize.ofGiB(2))
                .hasPeakMemoryAtLeast("1GiB");
        // end::peak-memory[]
    }

    @Test
    void memory_headroom() {
        // tag::memory-headroom[]
        assertThat(usage).hasMemoryHeadroomAtLeast("10%")
                .hasMemoryHeadroomAtLeast(Percentage.of(10));
        // end::memory-headroom[]
    }

    @Test
    void cpu() {
        // tag::cpu[]
        assertThat(usage).hasCpuTimeAtMost("1m")
                .hasCpuTimeAtLeast(Duration.ofSeconds(10))
                .hasAverageCpuAtMost("200%")
                .hasAverageCpuAtLeast("100%")
                .hasThrottledTimeAtMost("500ms")
                .hasPeakPidsAtMost(64);
        // end::cpu[]
    }

    @Test
    void io() {
        // tag::io[]
        assertThat(usage).whereMeasurable() // block writes count on cgroup v2 hosts only
                .hasBlockReadAtMost("100MB")
                .hasBlockWriteAtMost(DataSize.ofMiB(50))
                .hasNetworkReceivedAtMost("1MB")
                .hasNetworkSentAtMost("1MB");
        // end::io[]
    }

    @Test
    void memory_growth() {
        // tag::memory-growth[]
        assertThat(usage).hasMemoryGrowthAtMost("20MiB/min")
                .hasMemoryGrowthAtMost(DataRate.parse("1GiB/h"));
        // end::memory-growth[]
    }

    @Test
    void oom() {
        // tag::oom[]
        assertThat(usage).wasNotOomKilled();
        // end::oom[]
    }

    @Test
    void phase() {
        // tag::phase[]
        assertThat(usage).phase("train")
                .hasPeakMemoryAtMost("1.5GiB")
                .hasAverageCpuAtLeast("100%");
        // end::phase[]
    }

    @Test
    void description() {
        // tag::description[]
        assertThat(usage).as("model training")
                .hasPeakMemoryAtMost("1.8GiB");
        // end::description[]
    }

    @Test
    void soft_assertions() {
        // tag::soft-assertions[]
        VitalsSoftAssertions.assertSoftly(softly -> {
            softly.assertThat(usage).hasPeakMemoryAtMost("1.8GiB");
            softly.assertThat(usage).hasCpuTimeAtMost("1m");
            softly.assertThat(usage).phase("train").hasPeakMemoryAtMost("1.5GiB");
        });
        // end::soft-assertions[]
    }

    @Test
    void soft_assertions_extension() {
        // tag::soft-assertions-extension[]
        // on the class: @ExtendWith(SoftAssertionsExtension.class)
        // a field:      @InjectSoftAssertions VitalsSoftAssertions softly;
        softly.assertThat(usage).hasPeakMemoryAtMost("1.8GiB")
                .hasCpuTimeAtMost("1m");
        // end::soft-assertions-extension[]
    }
}
