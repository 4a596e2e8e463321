package io.vitals.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.PressureStall;
import io.vitals.ResourceUsage;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.metric.Metric;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Contention: a breach of a figure that contention inflates says when the container was starved")
class ContentionTests {

    /** The fixture usage (wall time 4.95 s) with the given CPU pressure and throttled time. */
    private static ResourceUsage starved(Duration waited, Duration throttled) {
        ResourceUsage u = ReportFixtures.usage("tf", 1.0, 100);
        return u.toBuilder().throttledTime(throttled).pressureStallCpu(Optional.of(new PressureStall(waited,
                Duration.ZERO))).pressureStallMemory(Optional.empty()).pressureStallIo(Optional.empty()).build();
    }

    @Test
    void cpuTime_whileWaitingForACoreHalfTheTime_saysTheBreachMayBeTheMachines() {
        ResourceUsage usage = starved(Duration.ofMillis(2475), Duration.ZERO);

        assertThat(Contention.explain(Metric.CPU_TIME, usage)).hasValue("the container was starved of CPU: it"
                + " waited for a core 50% of its 5.0 s (CPU pressure 2.5 s); CPU time depends on contention as well"
                + " as on the code, so this breach may be the machine's, not the code's");
    }

    @Test
    void averageCpu_throttledAQuarterOfTheTime_countsAsStarved() {
        ResourceUsage usage = starved(Duration.ZERO, Duration.ofMillis(1238));

        assertThat(Contention.explain(Metric.AVERAGE_CPU, usage)).hasValueSatisfying(
                clause -> assertThat(clause).contains("was throttled 25% of its 5.0 s (1.2 s)").contains("average CPU depends"));
    }

    @Test
    void cpuTime_onAnIdleMachine_addsNothing() {
        ResourceUsage usage = starved(Duration.ofMillis(200), Duration.ZERO); // 4 %

        assertThat(Contention.explain(Metric.CPU_TIME, usage)).isEmpty();
    }

    @Test
    void workloadDeterminedFigures_neverBlameTheMachine() {
        ResourceUsage usage = starved(Duration.ofSeconds(4), Duration.ofSeconds(1));

        assertThat(Arrays.stream(Metric.values()).filter(m -> Contention.explain(m, usage).isPresent()))
                .containsExactlyInAnyOrder(Metric.CPU_TIME, Metric.AVERAGE_CPU, Metric.THROTTLED_TIME,
                        Metric.MEMORY_GROWTH);
        assertThat(Contention.isSensitive(Metric.PEAK_MEMORY)).isFalse();
        assertThat(Contention.isSensitive(Metric.PEAK_PIDS)).isFalse();
        assertThat(Contention.isSensitive(Metric.BLOCK_WRITE)).isFalse();
    }
}
