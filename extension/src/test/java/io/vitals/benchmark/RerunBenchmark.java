package io.vitals.benchmark;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.internal.result.ReportNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.stream.Stream;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * A suite run again into the same report directory, as {@code mvn test} without {@code clean} does: the first time
 * a run writes into a class's directory, Vitals deletes the earlier run's test files there, and this shows whether
 * the tests wait for it. Runs one of {@link WholeRunOverheadBenchmark}'s measured classes (200, 2,000 or 10,000
 * trivial tests) several times into one directory and prints, for each run, the files it found, the whole run, the
 * median test and the slowest test (from its "started" to its "finished" event), then {@code name=value} lines of
 * the whole runs and the slowest tests. A run into an empty directory comes first. Asserts nothing about time. Not
 * a test:
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.benchmark.RerunBenchmark [tests] [runs]   # e.g. 10000 3
 * </pre>
 */
public final class RerunBenchmark {

    private RerunBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int tests = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Class<?>[] cases = WholeRunOverheadBenchmark.CASES.get(tests);
        if (cases == null) {
            throw new IllegalArgumentException("tests: 200, 2000 or 10000, not " + tests);
        }
        Class<?> measured = cases[1];
        Path reports = Files.createTempDirectory("vitals-rerun-bench");
        Path classDirectory = reports.resolve(ReportNames.classDirectory(measured.getName()));
        Launcher launcher = LauncherFactory.create();
        StringJoiner wholes = new StringJoiner(",");
        StringJoiner slowest = new StringJoiner(",");
        for (int run = 1; run <= runs; run++) {
            long filesBefore = jsonFiles(classDirectory);
            WholeRunOverheadBenchmark.Timeline timeline = new WholeRunOverheadBenchmark.Timeline();
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            long start = System.nanoTime();
            launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(measured))
                    .configurationParameter("vitals.reportDir", reports.toString())
                    .configurationParameter("vitals.console", "off").build(), summary, timeline);
            long whole = System.nanoTime() - start;
            if (summary.getSummary().getTestsSucceededCount() != tests) {
                throw new IllegalStateException(tests + " tests expected to pass, "
                        + summary.getSummary().getTestsSucceededCount() + " did");
            }
            double[] sorted = timeline.durations.values().stream().mapToDouble(Long::doubleValue).sorted().toArray();
            double slowestMillis = sorted[sorted.length - 1] / 1e6;
            System.out.printf(Locale.ROOT, "run %d: %d test files there before it; whole %.0f ms; test median %.3f ms,"
                    + " slowest %.1f ms, the five slowest %s ms%n", run, filesBefore, whole / 1e6,
                    sorted[sorted.length / 2] / 1e6, slowestMillis,
                    Arrays.toString(Arrays.stream(sorted, sorted.length - 5, sorted.length)
                            .map(nanos -> Math.round(nanos / 1e5) / 10.0).toArray()));
            wholes.add(String.format(Locale.ROOT, "%.0f", whole / 1e6));
            slowest.add(String.format(Locale.ROOT, "%.1f", slowestMillis));
        }
        System.out.println("rerun_whole_ms_by_run_" + tests + "=" + wholes);
        System.out.println("rerun_slowest_test_ms_by_run_" + tests + "=" + slowest);
        WholeRunOverheadBenchmark.deleteTree(reports);
    }

    private static long jsonFiles(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.toString().endsWith(".json")).count();
        }
    }
}
