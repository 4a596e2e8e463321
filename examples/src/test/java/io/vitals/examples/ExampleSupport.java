package io.vitals.examples;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.tensorflow.TrainingResult;

import java.nio.file.Path;
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
     * reports go to {@code target/vitals-fixtures/<fixture>}, apart from the suite's report, where a breach that
     * is the whole point of the example would read as a real one.
     */
    static EngineExecutionResults runFixture(Class<?> fixture) {
        Path reports = Path.of("target", "vitals-fixtures", fixture.getSimpleName());
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of("vitals.reportDir", reports.toString(), "vitals.console", "off"))
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
