package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vitals.MeasureResources;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Container;

/** Container scopes, JUnit's test kinds and parallel execution; and nothing left behind. */
@DisplayName("Lifecycle")
class LifecycleIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("a class-scoped container shared by three tests: each test's usage is its own (no bleed)")
    void sharedContainerGivesEachTestItsOwnUsage() {
        EngineExecutionResults results = VitalsTestKit.run(reports, SharedContainerTestCases.class);

        VitalsTestKit.assertAllSucceeded(results, 3);
    }

    @Test
    @DisplayName("method-scoped containers, @Nested classes, parameterized and repeated tests, PER_CLASS instances")
    void testKinds() {
        EngineExecutionResults results = VitalsTestKit.run(reports, TestKindsTestCases.class);

        VitalsTestKit.assertAllSucceeded(results, 7);
        assertThat(VitalsTestKit.entry(results, "[1] workers=1", "vitals.stress.cpuTime")).isPresent();
        EngineExecutionResults perClass = VitalsTestKit.run(reports, PerClassTestCases.class);
        VitalsTestKit.assertAllSucceeded(perClass, 2);
    }

    @Test
    @DisplayName("four concurrent tests, each with its own container: each test's figures are its own")
    void parallelTestsKeepTheirOwnFigures() {
        EngineExecutionResults results = VitalsTestKit.run(reports, ParallelTestCases.class,
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "4");

        VitalsTestKit.assertAllSucceeded(results, 4);
        assertThat(cpuMillis(results, "idle")).isLessThan(300);
        // Ground truth is each container's own CPU counter, read inside it at the start and the end of its test:
        // the four run at once on two cores, so their CPU time is stretched by contention too (on a busy virtual
        // machine by up to 3x for the same stress-ng ops), and only the kernel's own count says what they used.
        for (String test : List.of("busyHalfSecond", "busyOneSecond", "busyOneAndAHalfSeconds")) {
            long truth = Long.parseLong(VitalsTestKit.entry(results, test, "groundTruth.cpuMillis").orElseThrow());
            long tolerance = Long.parseLong(VitalsTestKit.entry(results, test, "groundTruth.toleranceMillis")
                    .orElseThrow());
            assertThat(cpuMillis(results, test)).as("CPU time of %s vs its container's own counter", test)
                    .isCloseTo(truth, within(tolerance));
        }
        // fixed amounts of work (stress-ng --cpu-ops 1400 / 2900 / 4300): whatever contention does to each, the
        // figures keep their order, so no test got another's CPU time
        assertThat(cpuMillis(results, "busyHalfSecond")).isLessThan(cpuMillis(results, "busyOneAndAHalfSeconds"));
    }

    private static long cpuMillis(EngineExecutionResults results, String test) {
        String value = VitalsTestKit.entry(results, test, "vitals.stress.cpuTime").orElseThrow();
        return Long.parseLong(value.replace(" ms", ""));
    }

    @Test
    @DisplayName("100 tests in a row leave no sampler thread and no container behind")
    void hundredTestsLeaveNothingBehind() throws InterruptedException {
        long containersBefore = managedContainers();

        EngineExecutionResults results = VitalsTestKit.run(reports, HundredTestCases.class);

        VitalsTestKit.assertAllSucceeded(results, 100);
        // a stopped sampler's thread ends a moment after its executor reports termination: a bounded while to end
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("vitals-sampler")) {
                thread.join(5_000);
                assertThat(thread.isAlive()).as("sampler thread %s left behind", thread.getName()).isFalse();
            }
        }
        assertThat(managedContainers()).isEqualTo(containersBefore);
    }

    private static long managedContainers() {
        return DockerClientFactory.lazyClient().listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("io.vitals.managed", "true")).exec().size();
    }

    @MeasureResources
    static class SharedContainerTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

        @Test
        void first_burnsCpu(ResourceMonitor monitor) throws Exception {
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet"); // about 1 s of CPU
            ResourceUsage usage = monitor.usage();
            assertThat(usage.cpuTime()).isGreaterThan(Duration.ofMillis(800));
            assertThat(usage.peakMemory().toMiB()).isLessThan(50);
        }

        @Test
        void second_allocates(ResourceMonitor monitor) throws Exception {
            CpuGroundTruth truth = CpuGroundTruth.of(stress, "dd if=/dev/zero bs=300M count=1 iflag=fullblock "
                    + "2>/dev/null | { head -c 1 >/dev/null; sleep 0.3; }");
            ResourceUsage usage = monitor.usage();
            assertThat(usage.peakMemory().toMiB()).isGreaterThan(290);
            // the first test's ~1 s of CPU would put the figure a second above the container's own count
            assertThat(usage.cpuTime().toMillis()).as("the first test's CPU time does not bleed in (%s)", truth)
                    .isCloseTo(truth.millis(), within(truth.tolerance()));
        }

        @Test
        void third_idles(ResourceMonitor monitor) throws Exception {
            stress.sh("sleep 0.5");
            ResourceUsage usage = monitor.usage();
            assertThat(usage.peakMemory().toMiB()).as("the second test's spike does not bleed in").isLessThan(50);
            assertThat(usage.peakMemoryHighWaterMark().orElseThrow().toMiB()).as("the mark was reset")
                    .isLessThan(50);
            assertThat(usage.cpuTime()).isLessThan(Duration.ofMillis(300));
        }
    }

    @MeasureResources
    static class TestKindsTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @Test
        void methodScoped(ResourceMonitor monitor) {
            assertThat(monitor.usages()).containsOnlyKeys("stress");
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        void parameterized(int workers, ResourceMonitor monitor) throws Exception {
            // a fixed amount of work per worker (about 0.35 s of CPU each here), whatever else the machine runs
            stress.sh("stress-ng --cpu " + workers + " --cpu-method int64 --cpu-ops " + 1000 * workers + " --quiet");
            assertThat(monitor.usage().cpuTime()).isGreaterThan(Duration.ofMillis(250L * workers));
        }

        @RepeatedTest(2)
        void repeated(ResourceMonitor monitor) {
            assertThat(monitor.usage().probe().name()).startsWith("HOST_CGROUP");
        }

        @Nested
        class Inner {

            @Container
            final StressContainer inner = new StressContainer();

            @Test
            void seesBothContainers(ResourceMonitor monitor) throws Exception {
                inner.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet");
                assertThat(monitor.usages()).containsOnlyKeys("stress", "inner");
                assertThat(monitor.usage("inner").cpuTime()).isGreaterThan(Duration.ofMillis(500));
                assertThat(monitor.usage("stress").cpuTime()).isLessThan(Duration.ofMillis(300));
            }

            @Test
            void usageWithoutNameNamesTheChoices(ResourceMonitor monitor) {
                org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(monitor::usage)
                        .withMessage("2 containers are watched (stress, inner): name one, e.g. usage(\"stress\")");
            }
        }
    }

    @MeasureResources
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class PerClassTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @Test
        void first(ResourceMonitor monitor) throws Exception {
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet");
            assertThat(monitor.usage().cpuTime()).isGreaterThan(Duration.ofMillis(500));
        }

        @Test
        void second(ResourceMonitor monitor) {
            assertThat(monitor.usage().cpuTime()).isLessThan(Duration.ofMillis(300));
        }
    }

    @MeasureResources
    @org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
    static class ParallelTestCases {

        @Container
        final StressContainer stress = new StressContainer();

        @Test
        void idle() throws Exception {
            stress.sh("sleep 1.5");
        }

        @Test
        void busyHalfSecond(TestReporter reporter) throws Exception {
            measured(reporter, "stress-ng --cpu 1 --cpu-method int64 --cpu-ops 1400 --quiet; sleep 1");
        }

        @Test
        void busyOneSecond(TestReporter reporter) throws Exception {
            measured(reporter, "stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet; sleep 0.5");
        }

        @Test
        void busyOneAndAHalfSeconds(TestReporter reporter) throws Exception {
            measured(reporter, "stress-ng --cpu 1 --cpu-method int64 --cpu-ops 4300 --quiet");
        }

        /** Runs the script between two readings of the container's own CPU counter and publishes the difference. */
        private void measured(TestReporter reporter, String script) throws Exception {
            CpuGroundTruth truth = CpuGroundTruth.of(stress, script);
            reporter.publishEntry("groundTruth.cpuMillis", String.valueOf(truth.millis()));
            reporter.publishEntry("groundTruth.toleranceMillis", String.valueOf(truth.tolerance()));
        }
    }

    /**
     * A script's CPU time by the container's own counter, read in an exec of its own before and after it, and how
     * far a test's window may differ: 30 ms and 3 %, plus twice what one {@code docker exec} itself costs the
     * container (runc's setup runs in its cgroup), measured right after. The window holds the whole of the reading
     * execs, the count only the part between the readings; an exec cost 20-30 ms here some days and 50-60 ms
     * others, so a fixed allowance failed on the slower days, with Vitals' figures as right as ever.
     *
     * @param millis the script's CPU time
     * @param execMillis the CPU one empty exec costs the container
     */
    record CpuGroundTruth(long millis, long execMillis) {

        static CpuGroundTruth of(StressContainer stress, String script) throws Exception {
            long before = cpuNanos(stress);
            stress.sh(script);
            long after = cpuNanos(stress);
            long again = cpuNanos(stress); // the reading exec's own cost: from one reading to the next
            return new CpuGroundTruth((after - before) / 1_000_000, (again - after) / 1_000_000);
        }

        long tolerance() {
            return 30 + millis * 3 / 100 + 2 * execMillis;
        }

        private static long cpuNanos(StressContainer stress) throws Exception {
            return Long.parseLong(stress.sh("cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null"
                    + " || awk '/usage_usec/ {print $2 * 1000}' /sys/fs/cgroup/cpu.stat").getStdout().strip());
        }
    }

    @MeasureResources
    static class HundredTestCases {

        @Container
        static final StressContainer stress = new StressContainer();

        @RepeatedTest(100)
        void aTest(ResourceMonitor monitor) {
            assertThat(monitor.usage().container()).isEqualTo("stress");
        }
    }
}
