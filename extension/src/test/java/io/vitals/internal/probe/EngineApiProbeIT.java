package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.SecondEngine;
import io.vitals.testing.StressContainer;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Engine API probe against an engine it reaches over TCP, as with a remote {@code DOCKER_HOST}: a second
 * dockerd on {@code tcp://127.0.0.1:23750}, started by {@code examples/setup/second-engine.sh}. Testcontainers
 * stays pointed at the first engine, so the stress container is created with the docker CLI ({@code -H}); the
 * probe is opened through {@link ProbeFactory} with {@link ProbeMode#ENGINE_API}, as the extension would.
 *
 * <p>Ground truth is what the container's own cgroup counted ({@code cpuacct.usage} read inside it), and the
 * known footprint of the load (a 200 MiB buffer held 3 s, 20 extra processes).
 */
@DisplayName("Engine API probe against a second engine on a loopback TCP port")
class EngineApiProbeIT {

    private static final SecondEngine SECOND = new SecondEngine(SecondEngine.DEFAULT_HOST);
    private static final long MIB = 1024 * 1024;
    private static final long LIMIT = 512 * MIB;

    private DockerHttpClient http;
    private Sampler sampler;
    private String containerId;
    private ContainerWatch watch;

    /** Fails (never skips) when the second engine is not there: the setup script was not run. */
    @BeforeAll
    static void secondEngineAnswers() {
        SECOND.require("EngineApiProbeIT", StressContainer.IMAGE);
    }

    @BeforeEach
    void startContainer() throws Exception {
        http = SECOND.client();
        sampler = new Sampler("vitals-engine-api-sampler");
        containerId = SECOND.startStress(LIMIT);
        ResourceProbe probe = ProbeFactory.forThisHost(() -> http).open(SECOND.targetOf(containerId),
                ProbeMode.ENGINE_API);
        watch = ContainerWatch.start("stress", StressContainer.IMAGE, probe, Duration.ofMillis(50), sampler);
    }

    @AfterEach
    void removeContainer() throws Exception {
        try {
            if (watch != null) {
                watch.close();
            }
            sampler.close();
            if (containerId != null) {
                SECOND.cli("rm", "-f", containerId);
            }
        } finally {
            http.close();
        }
    }

    @Test
    @DisplayName("the probe is the Engine API one, and the 50 ms asked for is clamped to its 1 s minimum")
    void probeKindAndClampedInterval() {
        assertThat(watch.probe().kind()).isEqualTo(ProbeKind.ENGINE_API);
        assertThat(watch.probe().minimumInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(watch.interval()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    @DisplayName("2 CPU workers for 3 s: CPU time within 5 % of the cgroup's own cpuacct.usage delta")
    void cpuTimeMatchesTheCgroupCounter() throws Exception {
        long before = cpuacctUsageFromInside();
        MeasurementWindow window = watch.openWindow();
        exec("stress-ng --cpu 2 --cpu-method int64 --timeout 3s --quiet");
        ResourceUsage usage = window.close();
        long after = cpuacctUsageFromInside();

        double groundTruthSeconds = (after - before) / 1e9;
        double measuredSeconds = usage.cpuTime().toNanos() / 1e9;
        System.out.printf("Engine API CPU time: measured %.3f s, cgroup counted %.3f s (%+.2f %%), average %s, "
                + "peak %s, %d samples over %s%n", measuredSeconds, groundTruthSeconds,
                100 * (measuredSeconds - groundTruthSeconds) / groundTruthSeconds, usage.averageCpuPercent(),
                usage.peakCpuPercent(), usage.timeline().samples(), usage.wallTime());
        assertThat(usage.probe()).isEqualTo(ProbeKind.ENGINE_API);
        assertThat(measuredSeconds).isCloseTo(groundTruthSeconds, within(0.05 * groundTruthSeconds));
        // Two workers for three seconds are 6 s of CPU on an idle host with 2 CPUs or more; this 2-CPU host is shared
        // with other jobs (one run got 2.98 s), so only check that the load really ran.
        assertThat(measuredSeconds).isGreaterThan(1.5);
    }

    @Test
    @DisplayName("a 200 MiB buffer held 3 s (≥ 2 sampling intervals): sampled peak ≥ 190 MiB; limit 512 MiB")
    void heldAllocationIsSeenAtOneSecondSampling() throws Exception {
        MeasurementWindow window = watch.openWindow();
        // dd fills a 200 MiB buffer from /dev/zero (touching every page), then blocks writing it into a pipe that
        // sleep never reads: the memory is held until sleep exits 3 s later.
        exec("dd if=/dev/zero bs=200M count=1 iflag=fullblock 2>/dev/null | sleep 3");
        ResourceUsage usage = window.close();

        System.out.printf("Engine API peak memory: %s (%s, at %s), limit %s, %d samples over %s%n",
                usage.peakMemory(), usage.peak().describeMethod(), usage.peak().at(),
                usage.memoryLimit().map(DataSize::toString).orElse("none"), usage.timeline().samples(),
                usage.wallTime());
        assertThat(usage.peakMemory()).isGreaterThanOrEqualTo(DataSize.ofMiB(190));
        assertThat(usage.memoryLimit()).contains(DataSize.ofBytes(LIMIT));
        assertThat(usage.after().memoryLimit()).contains(DataSize.ofBytes(LIMIT));
        // the Engine API cannot reset max_usage, so there is no per-test kernel high-water mark
        assertThat(usage.peakMemoryHighWaterMark()).isEmpty();
    }

    @Test
    @DisplayName("20 background processes held 3 s: PIDs 1 at rest, peak at least 21")
    void pidsCountsProcesses() throws Exception {
        assertThat(watch.probe().read().pids().current()).as("PIDs of an idle 'sleep infinity' container").isEqualTo(1);
        MeasurementWindow window = watch.openWindow();
        exec("for i in $(seq 20); do sleep 3 & done; wait");
        ResourceUsage usage = window.close();

        System.out.printf("Engine API peak PIDs: %d%n", usage.peakPids());
        assertThat(usage.peakPids()).isGreaterThanOrEqualTo(21);
    }

    @Test
    @DisplayName("after the container is removed, a read throws ContainerGoneException")
    void removedContainerIsGone() throws Exception {
        watch.close(); // stop sampling first, as the extension does before a container stops
        watch = null;
        ResourceProbe probe = ProbeFactory.forThisHost(() -> http).open(SECOND.targetOf(containerId),
                ProbeMode.ENGINE_API);
        assertThat(probe.read().pids().current()).isPositive();

        SECOND.cli("rm", "-f", containerId);
        containerId = null;

        assertThatThrownBy(probe::read).isInstanceOf(ContainerGoneException.class)
                .hasMessageContaining("'stress'");
        probe.close();
    }

    private long cpuacctUsageFromInside() throws Exception {
        return Long.parseLong(exec("cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || "
                + "awk '/usage_usec/ {print $2 * 1000}' /sys/fs/cgroup/cpu.stat").strip());
    }

    private String exec(String script) throws Exception {
        return SECOND.exec(containerId, script);
    }
}
