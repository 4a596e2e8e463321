package io.vitals.benchmark;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.internal.files.AtomicFiles;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * What a user pays for {@code @MeasureResources}: the wall time of a whole execution through the JUnit Platform
 * {@link Launcher}, from {@code execute} to its return (discovery, the class's container started and stopped, every
 * test, and the run end, when Vitals writes its run-wide files and drains its report thread), next to the same
 * tests with plain {@code @Testcontainers}. Trivial tests ({@code @RepeatedTest}, empty body) on one shared static
 * container, at 200, 2,000 and 10,000 tests.
 *
 * <p>{@code PerTestOverheadBenchmark} times each test from its "started" to its "finished" event, which misses what
 * is done per class and at the run's end; this one times everything, and prints beside it, from the same runs, the
 * events-only figure and where the whole run's time went (before the first test, between the first and the last,
 * after the last).
 *
 * <p>Plain and measured runs alternate in one JVM (warm-up pairs first, not counted: one by default, as issue 32
 * measures), so both see the same JIT and the same machine; the figures are the best and the median of the counted
 * rounds. The JIT is still compiling Vitals' code for several rounds after one warm-up pair, so each round's line
 * also gives the JIT's compile time during each run ({@code CompilationMXBean}); more warm-up pairs show the figure
 * once the JIT has settled. Each measured run writes into a fresh report directory (a run's first use of its
 * directory, as on a clean checkout), deleted once a size's rounds are done (10,000 tests write ~170 MB a run).
 * Prints {@code name=value} lines; asserts nothing about time. Not a test:
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.benchmark.WholeRunOverheadBenchmark [rounds] [sizes] [warm-ups]   # e.g. 5 200,2000,10000 1
 * java -cp ... io.vitals.benchmark.WholeRunOverheadBenchmark cold plain|measured [tests]   # one fresh JVM's run
 * </pre>
 */
public final class WholeRunOverheadBenchmark {

    private WholeRunOverheadBenchmark() {
    }

    /** Plain Testcontainers, 200 tests. */
    @Testcontainers
    public static class Plain200Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(200)
        void trivial() {
        }
    }

    /** Measured, 200 tests. */
    @MeasureResources
    public static class Measured200Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(200)
        void trivial() {
        }
    }

    /** Plain Testcontainers, 2,000 tests. */
    @Testcontainers
    public static class Plain2000Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(2_000)
        void trivial() {
        }
    }

    /** Measured, 2,000 tests. */
    @MeasureResources
    public static class Measured2000Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(2_000)
        void trivial() {
        }
    }

    /** Plain Testcontainers, 10,000 tests. */
    @Testcontainers
    public static class Plain10000Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(10_000)
        void trivial() {
        }
    }

    /** Measured, 10,000 tests. */
    @MeasureResources
    public static class Measured10000Case {
        @Container
        static final StressContainer CONTAINER = new StressContainer();

        @RepeatedTest(10_000)
        void trivial() {
        }
    }

    // the whole process's CPU time (every thread, GC and JIT included): on a shared 2-core machine, CPU that
    // Vitals' background threads take is CPU the test thread waits for
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();

    // the JIT compilers' time (all compiler threads together), to tell a run still compiling from a settled one
    private static final java.lang.management.CompilationMXBean JIT =
            java.lang.management.ManagementFactory.getCompilationMXBean();

    // the plain and the measured class of each size; RerunBenchmark runs the measured ones
    static final Map<Integer, Class<?>[]> CASES = Map.of(
            200, new Class<?>[] {Plain200Case.class, Measured200Case.class},
            2_000, new Class<?>[] {Plain2000Case.class, Measured2000Case.class},
            10_000, new Class<?>[] {Plain10000Case.class, Measured10000Case.class});

    /** One execution: the whole, and its parts, in nanoseconds; the JIT's compile time during it in milliseconds. */
    record Run(long whole, long beforeFirstTest, long tests, long afterLastTest, double eventsMedian,
            double eventsMean, double eventsMax, long cpu, long jitMillis) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("cold")) {
            cold(args);
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int[] sizes = Arrays.stream((args.length > 1 ? args[1] : "200,2000,10000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int warmUps = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        if (warmUps < 1) {
            throw new IllegalArgumentException("warm-ups: 1 or more, not " + warmUps);
        }
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put("warm_up_pairs", Integer.toString(warmUps));
        Launcher launcher = LauncherFactory.create();
        Path reports = Files.createTempDirectory("vitals-whole-run-bench");
        // the filesystem's part, which differs between machines by more than Vitals' own work per test
        figures.put("report_dir_file_write_us_median", String.format(Locale.ROOT, "%.1f (%s)",
                fileWriteMicros(reports.resolve("file-write-cost")), reports.getParent()));
        for (int tests : sizes) {
            Class<?>[] cases = CASES.get(tests);
            if (cases == null) {
                throw new IllegalArgumentException("sizes: 200, 2000 or 10000, not " + tests);
            }
            // fewer rounds for the large sizes: one 10,000-test measured run takes tens of seconds here
            int sizeRounds = tests >= 10_000 ? Math.min(rounds, 3) : tests >= 2_000 ? Math.min(rounds, 4) : rounds;
            List<Run> plain = new ArrayList<>();
            List<Run> measured = new ArrayList<>();
            for (int round = 1 - warmUps; round <= sizeRounds; round++) { // up to 0 they warm up, not counted
                Run p = run(launcher, cases[0], tests, reports.resolve("plain-" + tests + "-" + round));
                Run m = run(launcher, cases[1], tests, reports.resolve("measured-" + tests + "-" + round));
                System.out.printf(Locale.ROOT, "%d tests, round %d%s: plain %.3f ms/test, measured %.3f ms/test"
                        + " (measured: before the first test %.0f ms, tests %.0f ms, after the last %.0f ms;"
                        + " a test's events median %.3f, mean %.3f, slowest %.1f ms; process CPU plain %.0f ms,"
                        + " measured %.0f ms; JIT plain %d ms, measured %d ms)%n",
                        tests, round, round <= 0 ? " (warm-up)" : "", p.whole() / 1e6 / tests,
                        m.whole() / 1e6 / tests, m.beforeFirstTest() / 1e6, m.tests() / 1e6, m.afterLastTest() / 1e6,
                        m.eventsMedian() / 1e6, m.eventsMean() / 1e6, m.eventsMax() / 1e6, p.cpu() / 1e6,
                        m.cpu() / 1e6, p.jitMillis(), m.jitMillis());
                if (round > 0) {
                    plain.add(p);
                    measured.add(m);
                }
            }
            figures.putAll(figures(tests, plain, measured));
            // between sizes, not between runs: deleting thousands of files (a discard on this VM's disk) slows the
            // file creation of the run after it
            deleteTree(reports);
        }
        figures.forEach((name, value) -> System.out.println(name + "=" + value));
    }

    /**
     * {@code cold plain|measured [tests]}: what a user's JVM pays, Vitals' code not yet loaded or compiled. The JVM
     * first runs the plain case once (not counted), so that the JVM, JUnit and Testcontainers are as warm in both
     * kinds, then the named case once; run each kind in fresh JVMs, alternated, and compare the counted runs.
     */
    private static void cold(String[] args) throws IOException {
        boolean measured = switch (args.length > 1 ? args[1] : "") {
            case "plain" -> false;
            case "measured" -> true;
            default -> throw new IllegalArgumentException("usage: cold plain|measured [tests], not "
                    + String.join(" ", args));
        };
        int tests = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        Class<?>[] cases = CASES.get(tests);
        if (cases == null) {
            throw new IllegalArgumentException("tests: 200, 2000 or 10000, not " + tests);
        }
        Launcher launcher = LauncherFactory.create();
        Path reports = Files.createTempDirectory("vitals-whole-run-bench");
        run(launcher, cases[0], tests, reports.resolve("plain-warm-up"));
        Run counted = run(launcher, cases[measured ? 1 : 0], tests, reports.resolve("counted"));
        String kind = measured ? "measured" : "plain";
        System.out.println("cold_" + kind + "_ms_per_test_" + tests + "=" + ms(counted.whole() / (double) tests));
        System.out.println("cold_" + kind + "_parts_ms_" + tests + "=before the first test "
                + ms(counted.beforeFirstTest()) + ", tests " + ms(counted.tests()) + ", after the last "
                + ms(counted.afterLastTest()) + ", process CPU " + ms(counted.cpu()));
        deleteTree(reports);
    }

    private static Map<String, String> figures(int tests, List<Run> plain, List<Run> measured) {
        Map<String, String> figures = new LinkedHashMap<>();
        String n = "_" + tests;
        double plainBest = best(plain, Run::whole) / tests;
        double measuredBest = best(measured, Run::whole) / tests;
        double plainMedian = median(plain, Run::whole) / tests;
        double measuredMedian = median(measured, Run::whole) / tests;
        double[] addedByRound = new double[plain.size()];
        for (int i = 0; i < addedByRound.length; i++) {
            addedByRound[i] = (measured.get(i).whole() - plain.get(i).whole()) / (double) tests;
        }
        figures.put("whole_plain_ms_per_test_best" + n, ms(plainBest));
        figures.put("whole_measured_ms_per_test_best" + n, ms(measuredBest));
        figures.put("whole_added_ms_per_test_best" + n, ms(measuredBest - plainBest));
        figures.put("whole_plain_ms_per_test_median" + n, ms(plainMedian));
        figures.put("whole_measured_ms_per_test_median" + n, ms(measuredMedian));
        figures.put("whole_added_ms_per_test_median" + n, ms(measuredMedian - plainMedian));
        figures.put("whole_added_ms_per_test_by_round" + n, Arrays.stream(addedByRound)
                .mapToObj(WholeRunOverheadBenchmark::ms).collect(Collectors.joining(",")));
        figures.put("whole_ratio_best" + n, String.format(Locale.ROOT, "%.2f", measuredBest / plainBest));
        figures.put("whole_ratio_median" + n, String.format(Locale.ROOT, "%.2f", measuredMedian / plainMedian));
        figures.put("events_plain_ms_per_test_median" + n, ms(median(plain, Run::eventsMedian)));
        figures.put("events_measured_ms_per_test_median" + n, ms(median(measured, Run::eventsMedian)));
        figures.put("events_added_ms_per_test_median" + n,
                ms(median(measured, Run::eventsMedian) - median(plain, Run::eventsMedian)));
        figures.put("events_added_ms_per_test_mean" + n,
                ms(median(measured, Run::eventsMean) - median(plain, Run::eventsMean)));
        figures.put("cpu_added_ms_per_test_median" + n,
                ms((median(measured, Run::cpu) - median(plain, Run::cpu)) / tests));
        figures.put("jit_ms_median" + n, "plain " + Math.round(median(plain, Run::jitMillis)) + ", measured "
                + Math.round(median(measured, Run::jitMillis)));
        figures.put("before_first_test_ms_median" + n, "plain " + ms(median(plain, Run::beforeFirstTest))
                + ", measured " + ms(median(measured, Run::beforeFirstTest)));
        figures.put("first_to_last_test_ms_median" + n, "plain " + ms(median(plain, Run::tests)) + ", measured "
                + ms(median(measured, Run::tests)));
        figures.put("after_last_test_ms_median" + n, "plain " + ms(median(plain, Run::afterLastTest))
                + ", measured " + ms(median(measured, Run::afterLastTest)));
        return figures;
    }

    private static Run run(Launcher launcher, Class<?> testClass, int tests, Path reportDir) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass))
                .configurationParameter("vitals.reportDir", reportDir.toString())
                .configurationParameter("vitals.console", "off").build();
        Timeline timeline = new Timeline();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        long cpuBefore = PROCESS.getProcessCpuTime();
        long jitBefore = JIT.getTotalCompilationTime();
        long start = System.nanoTime();
        launcher.execute(request, summary, timeline);
        long end = System.nanoTime();
        long cpu = PROCESS.getProcessCpuTime() - cpuBefore;
        long jit = JIT.getTotalCompilationTime() - jitBefore;
        if (summary.getSummary().getTestsSucceededCount() != tests) {
            throw new IllegalStateException(testClass.getSimpleName() + ": " + tests + " tests expected to pass, "
                    + summary.getSummary().getTestsSucceededCount() + " did; " + summary.getSummary().getFailures());
        }
        double[] events = timeline.durations.values().stream().mapToDouble(Long::doubleValue).sorted().toArray();
        return new Run(end - start, timeline.firstStarted.get() - start,
                timeline.lastFinished.get() - timeline.firstStarted.get(), end - timeline.lastFinished.get(),
                events[events.length / 2], Arrays.stream(events).average().orElseThrow(), events[events.length - 1],
                cpu, jit);
    }

    /** When each test started and finished, on the engine's thread. */
    static final class Timeline implements TestExecutionListener {
        final AtomicLong firstStarted = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong lastFinished = new AtomicLong();
        final Map<String, Long> started = new ConcurrentHashMap<>();
        final Map<String, Long> durations = new ConcurrentHashMap<>();

        @Override
        public void executionStarted(TestIdentifier test) {
            if (test.isTest()) {
                long now = System.nanoTime();
                firstStarted.accumulateAndGet(now, Math::min);
                started.put(test.getUniqueId(), now);
            }
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest()) {
                long now = System.nanoTime();
                lastFinished.accumulateAndGet(now, Math::max);
                durations.put(test.getUniqueId(), now - started.get(test.getUniqueId()));
            }
        }
    }

    private interface Part {
        double of(Run run);
    }

    private static double best(List<Run> runs, Part part) {
        return runs.stream().mapToDouble(part::of).min().orElseThrow();
    }

    private static double median(List<Run> runs, Part part) {
        double[] values = runs.stream().mapToDouble(part::of).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    /**
     * The median cost of writing one new file as a run writes each test's JSON (a temporary file renamed over the
     * target, {@link AtomicFiles#write}), in microseconds, over the second 200 of 400 files in a fresh directory
     * beside the runs'. A trivial test's JSON is 8.3 KB; its rendering is not counted here. The files are left for
     * the first size's clean-up: on a disk like this VM's, deleting files right before a run slows its file creation.
     */
    static double fileWriteMicros(Path dir) throws IOException {
        byte[] content = new byte[8_330];
        Arrays.fill(content, (byte) 'x');
        long[] nanos = new long[200];
        for (int pass = 0; pass < 2; pass++) { // the first pass compiles the write path, as a run's first tests do
            for (int i = 0; i < nanos.length; i++) {
                long start = System.nanoTime();
                AtomicFiles.write(dir.resolve(pass + "-test-" + i + ".json"), content);
                nanos[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        return nanos[nanos.length / 2] / 1e3;
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + dir, e);
        }
    }
}
