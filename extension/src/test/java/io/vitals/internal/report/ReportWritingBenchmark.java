package io.vitals.internal.report;

import io.vitals.MeasureResources;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.result.TestResult;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonFactory;

/**
 * Not a test: times the report step as a run pays it, from the first {@code testFinished} to the end of
 * {@code close()}, for 1,000 and 10,000 tests (or the counts given as arguments) with 200-point timelines, then each
 * run-wide format rendered alone for the breakdown. Ends with one {@code name=value} line per figure.
 * Run with {@code java -Xmx4g -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt)
 * io.vitals.internal.report.ReportWritingBenchmark 1000 10000} after {@code mvn -o -q -pl extension test-compile
 * dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test}.
 */
public final class ReportWritingBenchmark {

    private ReportWritingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> counts = new ArrayList<>();
        for (String arg : args.length > 0 ? args : new String[] { "1000", "10000" }) {
            counts.add(Integer.parseInt(arg));
        }
        // Warm-up, so the figures show steady-state cost rather than class loading and JIT.
        run(1000, false);
        List<String> figures = new ArrayList<>();
        for (int tests : counts) {
            figures.addAll(run(tests, true));
        }
        figures.forEach(System.out::println);
    }

    private static List<TestResult> results(int tests) {
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i < tests; i++) {
            String className = "com.example.Bench" + (i / 20) + "Tests";
            results.add(i % 10 == 0 ? ReportFixtures.oomKilled(className, "oom" + i)
                    : ReportFixtures.result(className, "train", Optional.of("[" + i + "] batch=" + (i % 7) * 32),
                            0.5 + (i % 13) / 10.0));
        }
        return results;
    }

    private static List<String> run(int tests, boolean print) throws Exception {
        List<TestResult> results = results(tests);
        Path dir = Files.createTempDirectory("vitals-bench");
        ReportSession session = session(dir);
        long cpuStart = processCpuNanos();
        long start = System.nanoTime();
        List<CompletableFuture<?>> written = new ArrayList<>();
        results.forEach(r -> written.add(session.testFinished(r)));
        long handedOver = System.nanoTime();
        // close() at once, as a run does after its last test; it renders the run-wide files while the report
        // thread still writes the test files, and returns when both are done
        AtomicLong lastTestFile = new AtomicLong();
        CompletableFuture.allOf(written.toArray(CompletableFuture[]::new))
                .whenComplete((done, failed) -> lastTestFile.set(System.nanoTime()));
        session.close();
        long closed = System.nanoTime();
        long cpu = processCpuNanos() - cpuStart;
        long drained = lastTestFile.get();
        if (!print) {
            return List.of();
        }
        // In a real run the tests take time, and their files are written while they run: what is left at the end is
        // close() over an empty queue.
        ReportSession drainedFirst = session(Files.createTempDirectory("vitals-bench"));
        long drainCpuStart = processCpuNanos();
        CompletableFuture.allOf(results.stream().map(drainedFirst::testFinished).toArray(CompletableFuture[]::new))
                .join();
        long closeCpuStart = processCpuNanos();
        long closeStart = System.nanoTime();
        drainedFirst.close();
        long closeAfterDrain = System.nanoTime() - closeStart;
        long closeCpu = processCpuNanos() - closeCpuStart;
        long drainCpu = closeCpuStart - drainCpuStart;
        RunReport run = session.report();
        JsonFactory factory = new JsonFactory();
        System.out.printf(Locale.ROOT, "%n%,d tests%n", tests);
        line("testFinished x " + tests + " (hand-over to the report thread)", handedOver - start);
        line("per-test JSON written (rendered + written on the report thread)", drained - start);
        line("close() after the last test: run-wide files, and the test files still queued", closed - handedOver);
        line("total, first testFinished to end of close()", closed - start);
        line("  CPU of the whole process meanwhile, all threads (GC included)", cpu);
        line("close() once every test file is written (a run whose tests take time)", closeAfterDrain);
        line("  CPU of the process during that close()", closeCpu);
        line("  CPU of the process writing the test files before it", drainCpu);
        System.out.println("rendered alone, after close():");
        long index = time("  run index vitals.json", () -> new String(new RunIndexWriter(factory).write(run)));
        long html = time("  index.html", () -> new HtmlReport().write(run));
        long md = time("  summary.md", () -> new MarkdownSummary().write(run));
        long prom = time("  vitals.prom", () -> new PrometheusWriter(PrometheusSeries.TEST).write(run));
        double htmlMb = Files.size(dir.resolve("index.html")) / 1e6;
        double indexMb = Files.size(dir.resolve("vitals.json")) / 1e6;
        double promMb = Files.size(dir.resolve("vitals.prom")) / 1e6;
        System.out.printf(Locale.ROOT, "sizes: index.html %.1f MB, vitals.json %.1f MB, vitals.prom %.1f MB%n",
                htmlMb, indexMb, promMb);
        String n = "_" + tests + "_tests";
        return List.of(
                figure("reports" + n + "_total_s", (closed - start) / 1e9),
                figure("reports" + n + "_cpu_s", cpu / 1e9),
                figure("per_test_json" + n + "_s", (drained - start) / 1e9),
                figure("close" + n + "_s", (closed - handedOver) / 1e9),
                figure("close_after_drain" + n + "_s", closeAfterDrain / 1e9),
                figure("close_after_drain" + n + "_cpu_s", closeCpu / 1e9),
                figure("test_files" + n + "_cpu_s", drainCpu / 1e9),
                figure("run_index_render" + n + "_s", index / 1e3),
                figure("html_render" + n + "_s", html / 1e3),
                figure("summary_render" + n + "_s", md / 1e3),
                figure("prom_render" + n + "_s", prom / 1e3),
                figure("index_html" + n + "_mb", htmlMb),
                figure("vitals_json" + n + "_mb", indexMb),
                figure("vitals_prom" + n + "_mb", promMb));
    }

    /** CPU time of this JVM so far, every thread: on 2 cores the total can never be under half of it. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** A session writing into {@code dir}, printing nothing to the console. */
    private static ReportSession session(Path dir) {
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(
                Map.of(MeasureResources.REPORT_DIR_KEY, dir.toString(), MeasureResources.CONSOLE_KEY, "off").get(key))),
                Clock.systemUTC(), s -> { }, System.err::println);
    }

    private static String figure(String name, double value) {
        return String.format(Locale.ROOT, "%s=%.2f", name, value);
    }

    private static void line(String what, long nanos) {
        System.out.printf(Locale.ROOT, "%-66s %7d ms%n", what, nanos / 1_000_000);
    }

    private static long time(String what, Supplier<String> task) {
        long start = System.nanoTime();
        String out = task.get();
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(Locale.ROOT, "%-66s %7d ms  (%.1f MB)%n", what, ms, out.length() / 1e6);
        return ms;
    }
}
