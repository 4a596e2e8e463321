package io.vitals.examples;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TrainingResult;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Small helpers shared by the examples: running a fixture class whose failure is the expected outcome, and
 * printing figures the same way everywhere.
 */
final class ExampleSupport {

    private ExampleSupport() {
    }

    /**
     * Runs {@code fixture} (a nested {@code @MeasureResources} class) through its own Jupiter engine, the way
     * the extension's own tests do, so an expected failure can be asserted instead of failing the build. Its
     * results join the suite's report (the same report directory, and the same run), each marked "expected to fail,
     * by its suite" with the name of the test calling this ({@code vitals.report.expectedToFailBy}): a reader of
     * the example report sees what a red test looks like, and that the suite meant it to be red.
     */
    static EngineExecutionResults runFixture(Class<?> fixture) {
        // the test that runs the fixture: the frame just above this one
        String caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
                .skip(1).findFirst().map(f -> f.getDeclaringClass().getSimpleName() + "." + f.getMethodName())
                .orElseThrow());
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of(MeasureResources.EXPECTED_TO_FAIL_BY_KEY, caller,
                        MeasureResources.CONSOLE_KEY, "off"))
                .selectors(selectClass(fixture)).execute();
    }

    /** The failures of the fixture's tests, one per failed test, in order. */
    static java.util.List<Throwable> failures(EngineExecutionResults results) {
        return results.testEvents().failed().stream().map(ExampleSupport::failureOf).collect(Collectors.toList());
    }

    static Throwable failureOf(Event event) {
        return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                .orElseThrow(() -> new AssertionError("event has no failure: " + event));
    }

    /** Prints a failure message the suite expected, indented, so the explanation shows in the build log. */
    static void printExpected(String what, Throwable failure) {
        System.out.println("---- expected " + what + " (" + failure.getClass().getSimpleName() + "):");
        failure.getMessage().lines().forEach(line -> System.out.println("   | " + line));
        System.out.println("----");
    }

    static void printEpochs(String label, TrainingResult result) {
        result.epochs().forEach(e -> System.out.printf(Locale.ROOT, "%s epoch %d: loss %.4f, %,.0f examples/s%n",
                label, e.number(), e.loss(), e.examplesPerSecond()));
    }

    /** One line with the figures that matter for most examples. */
    static void printUsage(String label, ResourceUsage usage) {
        System.out.printf(Locale.ROOT, "%s: peak memory %s (%s) of %s, headroom %s, CPU time %s, average CPU %s,"
                + " peak PIDs %d, OOM kills %d%n", label, usage.peakMemory(), usage.peak().describeMethod(),
                usage.memoryLimit().map(DataSize::toString).orElse("no limit"),
                usage.memoryHeadroom().map(Object::toString).orElse("-"), seconds(usage.cpuTime()),
                usage.averageCpuPercent(), usage.peakPids(), usage.oomKills());
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
    }
}
