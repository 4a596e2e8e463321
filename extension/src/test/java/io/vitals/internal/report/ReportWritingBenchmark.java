package io.vitals.internal.report;

import io.vitals.MeasureResources;
import io.vitals.internal.report.baseline.BaselineVerdict;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.prometheus.PrometheusWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonFactory;

/**
 * Not a test: times the report writers for 1,000 tests with 200-point timelines (target: under 2 s in all).
 * Run with {@code mvn -pl extension test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.vitals.internal.report.ReportWritingBenchmark}.
 */
public final class ReportWritingBenchmark {

    private ReportWritingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int tests = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i < tests; i++) {
            String className = "com.example.Bench" + (i / 20) + "Tests";
            results.add(i % 10 == 0 ? ReportFixtures.oomKilled(className, "oom" + i)
                    : ReportFixtures.result(className, "train", Optional.of("[" + i + "] batch=" + (i % 7) * 32),
                            0.5 + (i % 13) / 10.0));
        }
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x.json", BaselineVerdict.none(ReportNames.testKey(r))));
        }
        RunReport run = new RunReport(Instant.now(), entries, Optional.empty());
        JsonFactory factory = new JsonFactory();
        // Warm-up, so the figures show steady-state cost rather than class loading and JIT.
        for (int i = 0; i < 2; i++) {
            results.forEach(new TestJsonWriter(factory)::write);
            new HtmlReport().write(run);
            new PrometheusWriter().write(run);
        }

        Path dir = Files.createTempDirectory("vitals-bench");
        long total = System.nanoTime();
        ReportSession session = new ReportSession(ReportSettings.from(key -> Optional.ofNullable(
                Map.of(MeasureResources.REPORT_DIR_KEY, dir.toString(), MeasureResources.CONSOLE_KEY, "off").get(key))),
                Clock.systemUTC(), s -> { }, System.err::println);
        long perTest = time("per-test JSON (" + tests + " files, rendered + written)", () -> {
            results.forEach(session::testFinished);
            return "";
        });
        long index = time("run index vitals.json", () -> new String(new RunIndexWriter(factory).write(
                session.report())));
        time("index rewrite after a class (classFinished)", () -> {
            session.classFinished("com.example.Bench0Tests");
            return "";
        });
        long html = time("index.html (render)", () -> new HtmlReport().write(session.report()));
        long md = time("summary.md (render)", () -> new MarkdownSummary().write(session.report()));
        long prom = time("vitals.prom (render)", () -> new PrometheusWriter().write(session.report()));
        long close = time("close(): index + html + summary + prom, rendered and written", () -> {
            session.close();
            return "";
        });
        long all = (System.nanoTime() - total) / 1_000_000;
        System.out.printf(Locale.ROOT, "total (per-test JSON + close, as a run pays it): %d ms%n", perTest + close);
        System.out.printf(Locale.ROOT, "wall incl. separate renders above: %d ms (index %d, html %d, md %d, prom %d)%n",
                all, index, html, md, prom);
        System.out.printf(Locale.ROOT, "sizes: index.html %.1f MB, vitals.json %.1f MB, vitals.prom %.1f MB%n",
                Files.size(dir.resolve("index.html")) / 1e6, Files.size(dir.resolve("vitals.json")) / 1e6,
                Files.size(dir.resolve("vitals.prom")) / 1e6);
    }

    private static long time(String what, Supplier<String> task) {
        long start = System.nanoTime();
        String out = task.get();
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(Locale.ROOT, "%-62s %6d ms%s%n", what, ms,
                out.isEmpty() ? "" : String.format(Locale.ROOT, "  (%.1f MB)", out.length() / 1e6));
        return ms;
    }
}
