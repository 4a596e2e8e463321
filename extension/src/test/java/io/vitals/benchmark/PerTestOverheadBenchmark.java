package io.vitals.benchmark;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * What {@code @MeasureResources} adds to each test: 200 trivial tests on one shared container, run through the
 * Jupiter engine once with plain {@code @Testcontainers} and once with {@code @MeasureResources} (reports written
 * to a temporary directory, console off), in alternation, five rounds each (the argument): the first warms up the
 * JIT and the Docker connections and is not counted, and the figure is the median of the other rounds' medians
 * (until 2026-12-01 it was the second round's alone, with the JIT still compiling). A test's time is from the engine's "started" to its "finished" event, which
 * includes every extension callback around it. Prints {@code name=value} lines. Not a test:
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.benchmark.PerTestOverheadBenchmark [rounds]
 * </pre>
 */
public final class PerTestOverheadBenchmark {

    static final int TESTS = 200;

    private PerTestOverheadBenchmark() {
    }

    /** Plain Testcontainers: the baseline. */
    @Testcontainers
    public static class PlainCase {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(TESTS)
        void trivial() {
        }
    }

    /** The same tests measured. */
    @MeasureResources
    public static class MeasuredCase {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(TESTS)
        void trivial() {
        }
    }

    public static void main(String[] args) throws Exception {
        // The first round warms up the JIT and the Docker connections and is not counted. On a 2-core VM one
        // round's median moves by up to 2x from run to run (whatever the other core is doing), so the figure is
        // the median of the counted rounds' figures, each round's printed beside it.
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path reports = Files.createTempDirectory("vitals-per-test-bench");
        Map<String, String> figures = new java.util.LinkedHashMap<>();
        List<double[]> plain = new ArrayList<>();
        List<double[]> measured = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double[] plainRound = run(PlainCase.class, reports);
            double[] measuredRound = run(MeasuredCase.class, reports);
            if (round > 1 || rounds == 1) {
                plain.add(plainRound);
                measured.add(measuredRound);
            }
        }
        double[] plainMedians = plain.stream().mapToDouble(PerTestOverheadBenchmark::median).toArray();
        double[] measuredMedians = measured.stream().mapToDouble(PerTestOverheadBenchmark::median).toArray();
        double[] added = new double[plain.size()];
        for (int i = 0; i < added.length; i++) {
            added[i] = measuredMedians[i] - plainMedians[i];
        }
        figures.put("plain_ms_per_test_median", ms(median(sorted(plainMedians))));
        figures.put("measured_ms_per_test_median", ms(median(sorted(measuredMedians))));
        figures.put("added_ms_per_test", ms(median(sorted(added))));
        figures.put("added_ms_per_test_by_round", java.util.Arrays.stream(added).mapToObj(PerTestOverheadBenchmark::ms)
                .collect(java.util.stream.Collectors.joining(",")));
        double[] allPlain = sorted(plain.stream().flatMapToDouble(java.util.Arrays::stream).toArray());
        double[] allMeasured = sorted(measured.stream().flatMapToDouble(java.util.Arrays::stream).toArray());
        figures.put("added_ms_per_test_mean", ms(mean(allMeasured) - mean(allPlain)));
        figures.put("added_ms_per_test_p90", ms(percentile(allMeasured, 0.9) - percentile(allPlain, 0.9)));
        figures.forEach((name, value) -> System.out.println(name + "=" + value));
    }

    private static double[] sorted(double[] values) {
        double[] copy = values.clone();
        java.util.Arrays.sort(copy);
        return copy;
    }

    private static double[] run(Class<?> testClass, Path reports) {
        Map<String, String> parameters = new HashMap<>();
        parameters.put("vitals.reportDir", reports.resolve(testClass.getSimpleName()).toString());
        parameters.put("vitals.console", "off");
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").configurationParameters(parameters)
                .selectors(selectClass(testClass)).execute();
        results.testEvents().assertStatistics(stats -> stats.succeeded(TESTS));
        Map<TestDescriptor, Event> started = new HashMap<>();
        List<Double> nanos = new ArrayList<>();
        for (Event event : results.testEvents().list()) {
            if (event.getType() == EventType.STARTED) {
                started.put(event.getTestDescriptor(), event);
            } else if (event.getType() == EventType.FINISHED) {
                Event start = started.get(event.getTestDescriptor());
                nanos.add((double) Duration.between(start.getTimestamp(), event.getTimestamp()).toNanos());
            }
        }
        return nanos.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static double median(double[] sorted) {
        return percentile(sorted, 0.5);
    }

    private static double percentile(double[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    private static double mean(double[] values) {
        return java.util.Arrays.stream(values).average().orElse(0);
    }

    private static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
