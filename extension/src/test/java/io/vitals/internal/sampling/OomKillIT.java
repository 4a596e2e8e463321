package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.testing.Probes;
import io.vitals.testing.StressContainer;

import java.time.Duration;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers
@DisplayName("OOM kills")
class OomKillIT {

    @Container
    final StressContainer stress = new StressContainer().withMemoryLimit("256MiB");

    @Test
    @DisplayName("an allocation beyond a 256 MiB limit is counted as one OOM kill, the high-water mark at the limit")
    void allocationBeyondTheLimitIsOneOomKill() throws Exception {
        try (Sampler sampler = new Sampler("vitals-test-sampler");
                ContainerWatch watch = Probes.watchPerTest(stress, ProbeMode.HOST_CGROUP, Duration.ofMillis(50),
                        sampler)) {
            MeasurementWindow window = watch.openWindow();
            long exit = stress.shExitCode("set -o pipefail; dd if=/dev/zero bs=400M count=1 iflag=fullblock 2>/dev/null | sleep 1");
            ResourceUsage usage = window.close();

            assertThat(exit).as("dd's exit through the pipe").isNotZero();
            assertThat(usage.oomKills()).isEqualTo(1);
            // memory.failcnt would count the limit hits, but kernel 6.18 leaves it at 0 on cgroup v1 (seen here);
            // the high-water mark reaching the limit exactly is the kernel's own evidence instead.
            assertThat(window.firstOomKillAt()).isPresent();
            assertThat(usage.memoryLimit()).hasValueSatisfying(limit ->
                    assertThat(limit.toMiB()).isEqualTo(256.0));
            assertThat(usage.peakMemoryHighWaterMark()).hasValueSatisfying(mark ->
                    assertThat(mark.toMiB()).isEqualTo(256.0));
        }
    }
}
