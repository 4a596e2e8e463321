package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ContainerFaultError;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.junit.jupiter.Container;

@DisplayName("Faults: OOM kills and crashed containers")
class FaultsIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("an OOM kill fails the test with the moment, limit, peak, last samples and log tail, even when "
            + "the test swallowed the error; the report is still written")
    void oomKillIsExplained() throws Exception {
        EngineExecutionResults results = VitalsTestKit.run(reports, OomTestCases.class);

        Throwable swallowed = VitalsTestKit.failureOf(results.testEvents().failed().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith("swallowsTheError")).findFirst()
                .orElseThrow());
        assertThat(swallowed).isInstanceOf(ContainerFaultError.class);
        assertThat(swallowed.getMessage())
                .matches("(?s)container 'stress' was OOM-killed at [0-9.]+ (ms|s): limit 128\\.0 MiB, peak "
                        + "128\\.0 MiB \\(kernel high-water mark; sampled peak [0-9.]+ [KM]iB\\), 1 process killed; "
                        + "the container itself kept running\n.*")
                .contains("Last samples:", "Last ", " lines of the container's log:", "| about to allocate 400 MiB");

        Throwable thrown = VitalsTestKit.failureOf(results.testEvents().failed().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith("letsTheErrorThrough")).findFirst()
                .orElseThrow());
        assertThat(thrown).isInstanceOf(ContainerFaultError.class).hasMessageContaining("was OOM-killed at");
        assertThat(thrown.getCause()).as("the test's own failure is kept as the cause")
                .isInstanceOf(AssertionError.class).hasMessageContaining("exited 137");

        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(2));
        try (Stream<Path> json = Files.walk(reports)) {
            assertThat(json.filter(p -> p.toString().endsWith(".json")).map(p -> p.getFileName().toString()))
                    .contains("swallowsTheError.json", "letsTheErrorThrough.json", "allowedOomKill.json");
        }
        assertThat(Files.readString(reports.resolve(OomTestCases.class.getName().replace('$', '.'))
                .resolve("swallowsTheError.json"))).contains("OOM_KILL");
    }

    @Test
    @DisplayName("a container that dies during the test fails it with its exit code; figures up to then are kept")
    void crashedContainerIsExplained() {
        EngineExecutionResults results = VitalsTestKit.run(reports, CrashTestCases.class);

        Throwable failure = VitalsTestKit.failureOf(results.testEvents().failed().stream().findFirst()
                .orElseThrow());
        assertThat(failure).isInstanceOf(ContainerFaultError.class);
        assertThat(failure.getMessage()).startsWith("container 'stress' stopped during the test (noticed at ")
                .contains("state exited, exit code 3");
    }

    @Test
    @DisplayName("failFast ends a test as soon as a sample shows peak memory over budget")
    void failFastEndsTheTestEarly() {
        long started = System.nanoTime();
        EngineExecutionResults results = VitalsTestKit.run(reports, FailFastTestCases.class);
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;

        Throwable failure = VitalsTestKit.failureOf(results.testEvents().failed().stream().findFirst()
                .orElseThrow());
        assertThat(failure).isInstanceOf(io.vitals.ResourceBudgetExceededError.class)
                .hasMessageStartingWith("Ended early: container 'stress': peak memory reached ")
                .hasMessageContaining("over the budget of 100MiB; the test was ended early (failFast)")
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(seconds).as("the 30 s test was not run to its end").isLessThan(25);
        assertThat(FailFastTestCases.INTERRUPTED_AFTER.get()).as("the guard's interrupt is confined to the test")
                .isFalse();
    }

    @Test
    @DisplayName("crossing 90 % of the memory limit is logged once, with the moment, as a warning")
    void memoryWarningIsLoggedOnce() {
        // the warning goes to the io.vitals.test SLF4J logger; slf4j-simple (the test binding) writes it to
        // System.err as "[thread] WARN io.vitals.test - message", looked up on every line, so capturing works
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = System.err;
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            VitalsTestKit.assertAllSucceeded(VitalsTestKit.run(reports, MemoryWarningTestCases.class), 1);
        } finally {
            System.setErr(err);
        }

        java.util.List<String> warnings = captured.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains(" io.vitals.test - ")).toList();
        assertThat(warnings).singleElement().satisfies(line -> assertThat(line).matches(
                ".* WARN io\\.vitals\\.test - container 'stress' in nearTheLimitTwice\\(\\) crossed 90\\.0% "
                + "of its memory limit at [0-9.]+ (ms|s): 2[34][0-9]\\.[0-9] MiB of 256\\.0 MiB"));
    }

    @MeasureResources
    static class MemoryWarningTestCases {

        @Container
        final StressContainer stress = new StressContainer().withMemoryLimit("256MiB");

        @Test
        void nearTheLimitTwice() throws Exception {
            for (int i = 0; i < 2; i++) {
                stress.sh("dd if=/dev/zero bs=240M count=1 iflag=fullblock 2>/dev/null"
                    + " | { head -c 1 >/dev/null; sleep 0.5; }");
            }
        }
    }

    @MeasureResources
    static class FailFastTestCases {

        /** Whether the thread was still interrupted when {@code @AfterEach} ran; null until it ran. */
        static final AtomicReference<Boolean> INTERRUPTED_AFTER = new AtomicReference<>();

        @Container
        final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

        @Test
        @ResourceBudget(peakMemory = "100MiB", failFast = true)
        void holdsTooMuchForLong() throws Exception {
            stress.sh("dd if=/dev/zero bs=300M count=1 iflag=fullblock 2>/dev/null | sleep 30");
        }

        @AfterEach
        void recordTheInterrupt() {
            INTERRUPTED_AFTER.set(Thread.currentThread().isInterrupted());
        }
    }

    @MeasureResources
    static class OomTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("128MiB");

        private static long allocate400MiB() throws Exception {
            return stress.shExitCode("echo 'about to allocate 400 MiB' > /proc/1/fd/1; set -o pipefail;"
                    + " dd if=/dev/zero bs=400M count=1 iflag=fullblock 2>/dev/null | sleep 1");
        }

        @Test
        void swallowsTheError() throws Exception {
            allocate400MiB(); // exit code ignored, as careless test code would
        }

        @Test
        void letsTheErrorThrough() throws Exception {
            long exit = allocate400MiB();
            if (exit != 0) {
                throw new AssertionError("allocation exited " + exit);
            }
        }

        @Test
        @ResourceBudget(allowOomKill = true)
        void allowedOomKill(ResourceMonitor monitor) throws Exception {
            allocate400MiB();
            assertThat(monitor.usage().oomKills()).isEqualTo(1);
        }
    }

    @MeasureResources
    static class CrashTestCases {

        @Container
        final StressContainer stress = new StressContainer()
                .withCommand("bash", "-c", "trap 'exit 3' TERM; while :; do sleep 0.1; done");

        @Test
        void containerDies() throws Exception {
            stress.sh("stress-ng --cpu 1 --timeout 1s --quiet");
            // signal PID 1 from outside: its trap exits with code 3, ending the container mid-test
            stress.getDockerClient().killContainerCmd(stress.getContainerId()).withSignal("SIGTERM").exec();
            Thread.sleep(500);
        }
    }
}
