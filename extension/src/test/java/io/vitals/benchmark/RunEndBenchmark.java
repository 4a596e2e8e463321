package io.vitals.benchmark;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.Measured;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * What a large run waits for after its last test: 10,000 trivial tests on one container through the Jupiter engine,
 * then the time from the last test's "finished" event to the engine's return, when every report is on disk (the
 * run-wide files, and the test files still queued). The container is started here, before the engine, and watched
 * through {@code @Measured}, so no container stops inside that time; the same class without
 * {@code @MeasureResources} gives the engine's own end. The first round warms up and is not counted. Prints
 * {@code name=value} lines. Not a test:
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.benchmark.RunEndBenchmark [rounds]
 * </pre>
 *
 * Unlike {@code ReportWritingBenchmark}, whose 10,000 tests each carry a 200-point timeline and all end at the same
 * instant, these are the tests of a real run: each takes the time the engine and Vitals need, and their files are
 * written while the next tests run.
 */
public final class RunEndBenchmark {

    static final int TESTS = 10_000;

    private RunEndBenchmark() {
    }

    /** The engine alone. */
    public static class PlainCase {
        @RepeatedTest(TESTS)
        void trivial() {
        }
    }

    /** The same tests measured. */
    @MeasureResources
    public static class MeasuredCase {
        @Measured
        static StressContainer container; // set by main

        @RepeatedTest(TESTS)
        void trivial() {
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Path reports = Files.createTempDirectory("vitals-run-end-bench");
        List<Double> plainEnds = new ArrayList<>();
        List<Double> measuredEnds = new ArrayList<>();
        List<Double> reportSizes = new ArrayList<>();
        try (StressContainer container = new StressContainer()) {
            container.start(); // here, not by a class: no container stops between the last test and the end
            MeasuredCase.container = container;
            for (int round = 1; round <= rounds; round++) {
                double plain = secondsAfterLastTest(PlainCase.class, reports.resolve("plain-" + round));
                Path measuredDir = reports.resolve("measured-" + round);
                double measured = secondsAfterLastTest(MeasuredCase.class, measuredDir);
                if (round > 1 || rounds == 1) {
                    plainEnds.add(plain);
                    measuredEnds.add(measured);
                    reportSizes.add(megabytes(measuredDir));
                }
                System.out.printf(Locale.ROOT, "round %d: after the last test, plain %.3f s, measured %.3f s%n", round,
                        plain, measured);
            }
        }
        System.out.println("plain_s_after_last_test_" + TESTS + "_tests=" + join(plainEnds));
        System.out.println("measured_s_after_last_test_" + TESTS + "_tests=" + join(measuredEnds));
        System.out.println("reports_mb_" + TESTS + "_tests=" + join(reportSizes));
    }

    private static double secondsAfterLastTest(Class<?> testClass, Path reportDir) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of("vitals.reportDir", reportDir.toString(), "vitals.console", "off"))
                .selectors(selectClass(testClass)).execute();
        Instant returned = Instant.now();
        results.testEvents().assertStatistics(stats -> stats.succeeded(TESTS));
        Instant lastFinished = results.testEvents().list().stream().filter(e -> e.getType() == EventType.FINISHED)
                .map(Event::getTimestamp).max(Instant::compareTo).orElseThrow();
        return Duration.between(lastFinished, returned).toNanos() / 1e9;
    }

    private static double megabytes(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum() / 1e6;
        }
    }

    private static String join(List<Double> values) {
        return String.join(",", values.stream().map(v -> String.format(Locale.ROOT, "%.3f", v)).toList());
    }
}
