package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.vitals.MeasureResources;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceUsage;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.KernelCgroup;
import io.vitals.testing.Probes;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Every figure of a container started by the test, compared with the kernel's own counters read independently
 * ({@link KernelCgroup}): the accuracy suite of the cgroup v2 guests ({@code run.sh v2}), which also runs on cgroup
 * v1 hosts, where it checks the v1 equivalents: for block writes, which v1 does not attribute, that the figure
 * agrees with the kernel's count and that a blockWrite budget is never judged silently (it fails under
 * {@code vitals.strict}). Nothing is skipped. Each test prints its measured error, for the exactness matrix in
 * docs/metrics.md.
 */
@Testcontainers
@DisplayName("cgroup figures against the kernel's own counters")
class CgroupV2AccuracyIT {

    private static final long MIB = 1024 * 1024;
    private static final String SPIKES = "for i in 1 2 3; do dd if=/dev/zero bs=300M count=1 iflag=fullblock"
            + " 2>/dev/null | sleep 0.15; sleep 0.5; done";
    private static final String WRITE_64_MIB = "dd if=/dev/zero of=/tmp/vitals-io bs=1M count=64 conv=fsync"
            + " 2>/dev/null; rm /tmp/vitals-io";

    @Container
    final StressContainer stress = new StressContainer().withMemoryLimit("512MiB");

    private Sampler sampler;
    private ContainerWatch watch;
    private KernelCgroup kernel;

    @BeforeEach
    void watch() throws Exception {
        sampler = new Sampler("vitals-test-sampler");
        watch = Probes.watchPerTest(stress, ProbeMode.HOST_CGROUP, Duration.ofMillis(50), sampler);
        kernel = KernelCgroup.of(stress);
    }

    @AfterEach
    void stop() {
        watch.close();
        sampler.close();
    }

    private static String shape() {
        return (KernelCgroup.hostIsV2() ? "cgroup v2" : "cgroup v1") + ", kernel " + System.getProperty("os.version")
                + ", user " + System.getProperty("user.name");
    }

    @Test
    @DisplayName("300 MiB spikes of 150 ms in a container started by the test: peak within 1 % of memory.peak")
    void peakOfAContainerStartedByTheTest() throws Exception {
        MeasurementWindow window = watch.openWindow();
        stress.sh(SPIKES);
        ResourceUsage usage = window.close();
        long mark = kernel.memoryPeak();

        System.out.printf("[accuracy] %s | per-test peak: vitals high-water mark %s, kernel %.1f MiB, error %s;"
                + " MEM USAGE %s (%s), error %+.2f %%%n", shape(), usage.peakMemoryHighWaterMark().orElse(null),
                mark / (double) MIB, usage.peakMemoryHighWaterMark().map(m -> String.format("%+.3f %%",
                error(m.toBytes(), mark))).orElse("none"), usage.peakMemory(), usage.peak().describeMethod(),
                error(usage.peakMemory().toBytes(), mark));
        assertThat(usage.probe()).isEqualTo(KernelCgroup.hostIsV2() ? ProbeKind.HOST_CGROUP_V2
                : ProbeKind.HOST_CGROUP_V1);
        assertThat(mark).isGreaterThan(300 * MIB);
        // the limit the container was started with, whichever cgroup the engine set it on (Podman: the libpod scope)
        assertThat(usage.memoryLimit()).contains(io.vitals.DataSize.ofMiB(512));
        assertThat(usage.peakMemoryHighWaterMark()).as("the exact mark of a container started by the test")
                .hasValueSatisfying(peak -> assertThat((double) peak.toBytes()).isCloseTo(mark,
                        within(0.01 * mark)));
    }

    @Test
    @DisplayName("a container shared by tests: exact where the mark resets per window, else sampled and said so")
    void peakOfASharedContainer() throws Exception {
        // an earlier test on the same container, smaller than this one's spikes
        MeasurementWindow earlier = watch.openWindow();
        stress.sh("dd if=/dev/zero bs=100M count=1 iflag=fullblock 2>/dev/null | sleep 0.15");
        earlier.close();

        MeasurementWindow window = watch.openWindow();
        stress.sh(SPIKES);
        ResourceUsage usage = window.close();
        long mark = kernel.memoryPeak(); // the spikes are the largest the container saw: lifetime mark = this test's
        boolean resettable = kernel.peakResettableByUs();

        System.out.printf("[accuracy] %s | shared-container peak (%s): vitals high-water mark %s, kernel %.1f MiB,"
                + " error %s; MEM USAGE %s (%s), error %+.2f %%%n", shape(),
                resettable ? "per-window reset" : "no reset: sampled", usage.peakMemoryHighWaterMark().orElse(null),
                mark / (double) MIB, usage.peakMemoryHighWaterMark().map(m -> String.format("%+.3f %%",
                error(m.toBytes(), mark))).orElse("none"), usage.peakMemory(), usage.peak().describeMethod(),
                error(usage.peakMemory().toBytes(), mark));
        assertThat(mark).isGreaterThan(300 * MIB);
        if (resettable) {
            assertThat(usage.peakMemoryHighWaterMark()).hasValueSatisfying(peak ->
                    assertThat((double) peak.toBytes()).isCloseTo(mark, within(0.01 * mark)));
        } else {
            // no per-window mark: the figure is the sampled MEM USAGE, and the usage says so
            assertThat(usage.peakMemoryHighWaterMark()).isEmpty();
            assertThat(usage.peak().describeMethod()).isEqualTo("sampled every 50 ms");
            // a sampled figure, judged against a mark that is not quite the same thing: the mark counts page cache
            // that MEM USAGE leaves out (its inactive file cache comes from the last full read, up to 1 s old), and
            // a sampler delayed by a busy core can land on the ramp of a 150 ms spike rather than its top. Seen:
            // -0.08 to -1.75 % in the v2 guests, -3.25 and -3.39 % as a non-root user on cgroup v1, -4.88, -5.45
            // and -12.50 % there next to a busy core (the CI runs of sessions 10 and 11). So this checks that the
            // sampler caught the spikes (a missed spike reads the idle container's few MiB), within 25 %; how
            // close a sampled peak lands is reported above and in docs/metrics.md, not asserted to a tighter bound
            // that a loaded runner breaks.
            assertThat((double) usage.peakMemory().toBytes()).isCloseTo(mark, within(0.25 * mark));
        }
    }

    @Test
    @DisplayName("CPU time within 1 % of the cgroup's usage_usec (v1: cpuacct.usage)")
    void cpuTime() throws Exception {
        long before = kernel.cpuNanos();
        MeasurementWindow window = watch.openWindow();
        stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 600 --quiet");
        ResourceUsage usage = window.close();
        long kernelNanos = kernel.cpuNanos() - before;

        System.out.printf("[accuracy] %s | CPU time: vitals %d ms, kernel %d ms, error %+.3f %%%n", shape(),
                usage.cpuTime().toMillis(), kernelNanos / 1_000_000, error(usage.cpuTime().toNanos(), kernelNanos));
        assertThat(kernelNanos).isGreaterThan(100_000_000L);
        assertThat((double) usage.cpuTime().toNanos()).isCloseTo(kernelNanos, within(0.01 * kernelNanos));
    }

    @Test
    @DisplayName("an allocation beyond the limit: one OOM kill, as memory.events oom_kill counts (v1: oom_control)")
    void oomKill() throws Exception {
        long before = kernel.oomKills();
        MeasurementWindow window = watch.openWindow();
        long exit = stress.shExitCode("set -o pipefail; dd if=/dev/zero bs=700M count=1 iflag=fullblock 2>/dev/null"
                + " | sleep 1");
        ResourceUsage usage = window.close();
        long kernelKills = kernel.oomKills() - before;

        System.out.printf("[accuracy] %s | OOM kills: vitals %d, kernel %d, first seen at %s%n", shape(),
                usage.oomKills(), kernelKills, window.firstOomKillAt().orElse(null));
        assertThat(exit).as("dd's exit through the pipe").isNotZero();
        assertThat(kernelKills).isEqualTo(1);
        assertThat(usage.oomKills()).isEqualTo(kernelKills);
        assertThat(window.firstOomKillAt()).isPresent();
    }

    @Test
    @DisplayName("a 64 MiB fsync'd write: block write equals io.stat wbytes and is at least 64 MiB (v2 only)")
    void blockWrite() throws Exception {
        long before = kernel.blockWriteBytes();
        MeasurementWindow window = watch.openWindow();
        stress.sh(WRITE_64_MIB);
        ResourceUsage usage = window.close();
        long kernelBytes = kernel.blockWriteBytes() - before;

        System.out.printf("[accuracy] %s | block write: vitals %s, kernel %.1f MiB%n", shape(), usage.blockWrite(),
                kernelBytes / (double) MIB);
        assertThat((double) usage.blockWrite().toBytes()).isCloseTo(kernelBytes, within(0.01 * kernelBytes + 1));
        if (KernelCgroup.hostIsV2()) {
            assertThat(usage.blockWrite().toBytes()).isGreaterThanOrEqualTo(64 * MIB);
        }
        // on v1 the agreement above is the whole check: v1 does not attribute buffered writeback to the writer's
        // cgroup, so both count what the kernel counted (0 B on this project's v1 host), and a blockWrite budget
        // is reported "not measurable here" (blockWriteBudget below)
    }

    @Test
    @DisplayName("throttling as cpu.stat nr_throttled counts, PIDs as pids.current counts, PSI present (v2)")
    void throttlingPidsAndPressure() throws Exception {
        long before = kernel.throttledPeriods();
        MeasurementWindow window = watch.openWindow();
        // 50 processes that outlive the exec (output detached, so docker exec returns): a slow machine (software
        // emulation) forks too slowly for short-lived ones to ever be 50 at once
        stress.sh("for i in $(seq 50); do sleep 600 >/dev/null 2>&1 & done");
        long kernelPids = kernel.pidsCurrent();
        long peakPids = window.usageSoFar().peakPids();
        // a fifth of a CPU, set only now: on a busy machine two workers may not reach a whole CPU's quota
        DockerClientFactory.lazyClient().updateContainerCmd(stress.getContainerId()).withCpuPeriod(100_000L)
                .withCpuQuota(20_000L).exec();
        // two workers for 1 s against the limit: throttled in most 100 ms periods (a time, not a number of
        // operations: only the counters are compared, and a slow machine must still hit the limit)
        stress.sh("stress-ng --cpu 2 --cpu-method int64 --timeout 1s --quiet");
        ResourceUsage usage = window.close();
        long kernelThrottled = kernel.throttledPeriods() - before;

        System.out.printf("[accuracy] %s | throttled periods: vitals %d, kernel %d; peak PIDs %d (kernel pids.current"
                + " %d); PSI cpu %s, memory %s, io %s%n", shape(), usage.throttledPeriods(), kernelThrottled, peakPids,
                kernelPids,
                usage.pressureStallCpu().orElse(null), usage.pressureStallMemory().orElse(null),
                usage.pressureStallIo().orElse(null));
        assertThat(kernelThrottled).isPositive();
        assertThat(usage.throttledPeriods()).isEqualTo(kernelThrottled);
        assertThat(kernelPids).isGreaterThanOrEqualTo(51);
        // the sampled peak may include the exec's own shell, alive while it started the 50 and gone when pids.current
        // is read (52 against 51, seen once in a CI run and once in the debian-12 guest); nothing else can be there
        assertThat(peakPids).isBetween(kernelPids, kernelPids + 1);
        assertThat(usage.peakPids()).isGreaterThanOrEqualTo(kernelPids);
        assertThat(usage.pressureStallCpu().isPresent()).as("PSI present").isEqualTo(
                kernel.pressureFile("cpu").isPresent());
        if (KernelCgroup.hostIsV2()) {
            // on v1 PSI exists only in the unified tree and only where the kernel enables it: the presence check
            // above is all that applies there
            assertThat(usage.pressureStallCpu()).hasValueSatisfying(psi -> assertThat(psi.some()).isPositive());
        }
    }

    @TempDir
    Path reports;

    @Test
    @DisplayName("@ResourceBudget(blockWrite) fails below a 64 MiB fsync'd write and passes above it"
            + " (v1: both fail under vitals.strict, as not measurable here)")
    void blockWriteBudget() {
        boolean v2 = KernelCgroup.hostIsV2();
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of("vitals.reportDir", reports.toString(), "vitals.console", "off",
                        "vitals.strict", String.valueOf(!v2)))
                .selectors(selectClass(BlockWriteBudgets.class)).execute();
        // every outcome with its cause (classes too: a class that fails leaves no test event), so that a failure in a
        // guest, where only the console and the JUnit report come back, says why
        results.allEvents().stream().filter(e -> e.getType() != org.junit.platform.testkit.engine.EventType.STARTED
                && e.getType() != org.junit.platform.testkit.engine.EventType.DYNAMIC_TEST_REGISTERED)
                .forEach(e -> System.out.printf("[accuracy] blockWriteBudget: %s %s %s%s%n", e.getType(),
                        e.getTestDescriptor().getDisplayName(), e.getPayload(TestExecutionResult.class)
                                .map(TestExecutionResult::getStatus).map(String::valueOf)
                                .or(() -> e.getPayload(String.class)).orElse(""),
                        e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                                .map(t -> ": " + t).orElse("")));
        if (!v2) {
            // v1 cannot attribute buffered writeback: neither budget may pass silently; strict mode fails both
            results.testEvents().assertThatEvents().haveExactly(2, event(finishedWithFailure(
                    instanceOf(ResourceBudgetExceededError.class),
                    message(m -> m.contains("block write ") && m.contains("cannot be measured here")))));
            return;
        }

        results.testEvents().assertThatEvents().haveExactly(1, event(test("within"), finishedSuccessfully()));
        results.testEvents().assertThatEvents().haveExactly(1, event(test("over"), finishedWithFailure(
                instanceOf(ResourceBudgetExceededError.class),
                message(m -> m.contains("block write ") && m.contains("exceeds the budget of 32MiB")))));
    }

    @MeasureResources
    static class BlockWriteBudgets {

        @Container
        final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(blockWrite = "32MiB")
        void over() throws Exception {
            stress.sh(WRITE_64_MIB);
        }

        @Test
        @ResourceBudget(blockWrite = "1GiB")
        void within() throws Exception {
            stress.sh(WRITE_64_MIB);
        }
    }

    private static double error(long measured, long truth) {
        return truth == 0 ? 0 : 100.0 * (measured - truth) / truth;
    }
}
