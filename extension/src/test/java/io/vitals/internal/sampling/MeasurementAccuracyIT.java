package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.testing.KernelCgroup;
import io.vitals.testing.Probes;
import io.vitals.testing.StressContainer;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Ground truth for the measurement core: stress containers with a known footprint, each figure compared with
 * what the kernel itself counted, read independently.
 */
@Testcontainers
@DisplayName("Measurement accuracy against ground truth")
class MeasurementAccuracyIT {

    private static final long MIB = 1024 * 1024;

    @Container
    final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

    private Sampler sampler;
    private ContainerWatch watch;

    @BeforeEach
    void watch() throws Exception {
        sampler = new Sampler("vitals-test-sampler");
        watch = Probes.watchPerTest(stress, ProbeMode.HOST_CGROUP, Duration.ofMillis(50), sampler);
    }

    @AfterEach
    void stop() {
        watch.close();
        sampler.close();
        assertThat(sampler.isRunning()).isFalse();
    }

    @Test
    @DisplayName("a 300 MiB spike held 150 ms, three times: sampled peak within 2 % of the kernel high-water mark")
    void shortSpikesAreCaughtAtTheDefaultInterval() throws Exception {
        MeasurementWindow window = watch.openWindow();
        // dd fills a 300 MiB buffer from /dev/zero (touching every page), then blocks writing it into a pipe
        // whose reader takes one byte and sleeps: the whole buffer is held for 150 ms from the moment it is full.
        // (The reader waits for that byte on purpose: a plain `| sleep 0.15` starts its clock with dd, so on a
        // busy machine most of the 150 ms went into filling the buffer, and the hold itself could be shorter
        // than one sampling interval.)
        stress.sh("for i in 1 2 3; do dd if=/dev/zero bs=300M count=1 iflag=fullblock 2>/dev/null"
                + " | { head -c 1 >/dev/null; sleep 0.15; }; sleep 0.7; done");
        ResourceUsage usage = window.close();

        DataSize highWaterMark = usage.peakMemoryHighWaterMark().orElseThrow();
        assertThat(usage.probe()).isEqualTo(KernelCgroup.hostIsV2() ? ProbeKind.HOST_CGROUP_V2
                : ProbeKind.HOST_CGROUP_V1);
        assertThat(highWaterMark.toBytes()).isGreaterThan(300 * MIB);
        assertThat((double) usage.peakMemory().toBytes())
                .isCloseTo(highWaterMark.toBytes(), within(0.02 * highWaterMark.toBytes()));

        // docker stats samples once a second: replay the 50 ms timeline at 1 s, for every phase a 1 s sampler
        // could have had, and count how often all three spikes fall between its samples (14 of 20 on an idle
        // machine, 3 of 20 next to a busy loop and a second build). It is printed, not asserted: given how long
        // each spike lasted, the count follows from where the spikes fall, so it says nothing about Vitals, and a
        // bound on it fails on geometry alone (under software emulation, spikes of up to 750 ms were missed by
        // none of the 20 phases). What Vitals promises is asserted above: the 50 ms peak is the kernel's.
        int missed = phasesOfOneSecondSamplingThatMiss(usage.timeline().points(), 150 * MIB);
        Duration longest = longestSpike(usage.timeline().points(), 150 * MIB);
        System.out.printf("1 s sampling missed all three spikes at %d of 20 phases; 50 ms peak %s, kernel mark %s;"
                + " longest spike %s%n", missed, usage.peakMemory(), highWaterMark, longest);
    }

    /** How long the longest run of points at or above {@code threshold} lasted, by the timeline's offsets. */
    private static Duration longestSpike(List<TimelinePoint> points, long threshold) {
        Duration longest = Duration.ZERO;
        Duration start = null;
        for (TimelinePoint point : points) {
            if (point.memory().toBytes() >= threshold) {
                start = start == null ? point.offset() : start;
                longest = longest.compareTo(point.offset().minus(start)) < 0 ? point.offset().minus(start) : longest;
            } else {
                start = null;
            }
        }
        return longest;
    }

    private static int phasesOfOneSecondSamplingThatMiss(List<TimelinePoint> points, long threshold) {
        int stride = 20; // 1 s / 50 ms
        int missed = 0;
        for (int phase = 0; phase < stride; phase++) {
            long max = 0;
            for (int i = phase; i < points.size(); i += stride) {
                max = Math.max(max, points.get(i).memory().toBytes());
            }
            if (max < threshold) {
                missed++;
            }
        }
        return missed;
    }

    @Test
    @DisplayName("2 CPU workers for 3 s: CPU time between the cgroup's count of the workload and its count around the"
            + " window (3 % either way), average CPU = CPU time / wall")
    void cpuTimeMatchesTheCgroupCounter() throws Exception {
        // Two counts of the kernel's own counter bound what the window must show, whatever an exec costs:
        // - the workload's own CPU, read inside the same exec just before and after it, is all inside the window;
        // - the count between a read before the window opens and one after it closes contains the window.
        // Here the two are ~30 ms apart (two execs' start and end); under software emulation (the cgroup v2
        // guests) an exec costs 0.1-1.9 s of the container's CPU, varying from one to the next by several times,
        // so an estimate of that cost taken once, and subtracted, missed by up to 0.49 s.
        long before = cpuacctUsageFromInside();
        MeasurementWindow window = watch.openWindow();
        String[] inside = stress.sh(READ_CPU_COUNTER + "; stress-ng --cpu 2 --cpu-method int64 --timeout 3s --quiet; "
                + READ_CPU_COUNTER).getStdout().trim().split("\\s+");
        ResourceUsage usage = window.close();
        long after = cpuacctUsageFromInside();

        double workloadSeconds = (Long.parseLong(inside[1]) - Long.parseLong(inside[0])) / 1e9;
        double aroundSeconds = (after - before) / 1e9;
        double measuredSeconds = usage.cpuTime().toNanos() / 1e9;
        System.out.printf("CPU time: measured %.3f s, cgroup counted %.3f s for the workload and %.3f s around the"
                + " window, average %s, wall %s%n", measuredSeconds, workloadSeconds, aroundSeconds,
                usage.averageCpuPercent(), usage.wallTime());
        assertThat(measuredSeconds).isBetween(0.97 * workloadSeconds, 1.03 * aroundSeconds);
        // How much CPU two workers get in three seconds depends on what else runs, so the average is the CPU time
        // over the window's own wall time, and the highest 50 ms rate cannot be below it.
        double wallSeconds = usage.wallTime().toNanos() / 1e9;
        assertThat(usage.averageCpuPercent().value()).isCloseTo(100 * measuredSeconds / wallSeconds, within(0.01));
        assertThat(usage.peakCpuPercent().value()).isGreaterThanOrEqualTo(usage.averageCpuPercent().value());
    }

    // the container's CPU counter in nanoseconds, read inside it; on cgroup v2 the microseconds get three zeros as
    // text: awk's arithmetic is floating point, and prints 7.75399e+09 for a product above 2^31 (seen in the cgroup
    // v2 guests)
    private static final String READ_CPU_COUNTER = "{ cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || "
            + "awk '/usage_usec/ {print $2 \"000\"}' /sys/fs/cgroup/cpu.stat; }";

    private long cpuacctUsageFromInside() throws Exception {
        return Long.parseLong(stress.sh(READ_CPU_COUNTER).getStdout().trim());
    }

    @Test
    @DisplayName("50 forked processes: peak PIDs at least 51")
    void peakPidsCountsForkedProcesses() throws Exception {
        MeasurementWindow window = watch.openWindow();
        // all 50 are held until every one has started, then killed: however slowly the machine forks (under
        // software emulation 50 forks took over a second, and the first `sleep 1`s ended before the last began)
        stress.sh("for i in $(seq 50); do sleep 60 & done; sleep 0.5; kill $(jobs -p); wait; true");
        ResourceUsage usage = window.close();

        assertThat(usage.peakPids()).isGreaterThanOrEqualTo(51);
    }

    @Test
    @DisplayName("phases split one window: each phase gets its own CPU time")
    void phasesHaveTheirOwnUsage() throws Exception {
        MeasurementWindow window = watch.openWindow();
        window.mark("idle");
        stress.sh("sleep 1");
        window.mark("busy");
        // a fixed amount of work (about 1 s of CPU on an idle machine); contention can only make it cost more
        stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet");
        ResourceUsage usage = window.close();

        Duration idle = usage.phase("idle").orElseThrow().usage().cpuTime();
        Duration busy = usage.phase("busy").orElseThrow().usage().cpuTime();
        // The idle phase still pays for `docker exec` starting a shell and `sleep` in the container: tens of ms
        // here, 0.45-0.98 s under software emulation (the cgroup v2 guests), where the busy phase's fixed work
        // costs many times more as well; so the idle phase is held to a share of the busy one.
        System.out.printf("phases: idle %s, busy %s%n", idle, busy);
        assertThat(idle).isLessThan(busy.dividedBy(4));
        assertThat(busy).isGreaterThan(Duration.ofMillis(800));
        assertThat(usage.cpuTime()).isGreaterThanOrEqualTo(busy);
    }
}
