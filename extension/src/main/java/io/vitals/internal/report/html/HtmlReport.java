package io.vitals.internal.report.html;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.BudgetTally;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.Unit;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.apiguardian.api.API;

/**
 * Writes {@code index.html}: one self-contained page (inline CSS, inline SVG, a few lines of inline script to sort
 * the table; nothing fetched from anywhere). It reads from the top: what needs attention, with the one chart that
 * explains each failed or breached test ({@link #GLANCE_LIMIT} at most); then a sortable table of every test and
 * container, failed and breached tests first, whose test, outcome and budgets columns stay in view while its many
 * figure columns (one per {@link Metric#tabled()} figure) scroll inside it; comparison bar charts for
 * parameterized tests; and per test a collapsed section with its charts, budgets, fault and log tail.
 * A large run's page packs its rows, sections and comparison charts (see {@link #INLINE_LIMIT}).
 *
 * <p>Every text that comes from a test goes through {@link Html#escape}; display names are user input.
 */
@API(status = INTERNAL, since = "0.1")
public final class HtmlReport {

    /**
     * The figure columns the table always shows: with test, outcome, budgets, container and % of limit they fit a
     * 1280 px window without scrolling sideways. The other figures are one click away ("all figures"), then the
     * table scrolls inside its box; each test's section has every figure.
     */
    static final List<Metric> KEY_FIGURES = List.of(Metric.PEAK_MEMORY, Metric.CPU_TIME, Metric.AVERAGE_CPU,
            Metric.PEAK_PIDS);

    // the sort value of an unknown or unmeasured figure, -Double.MAX_VALUE as Double.toString writes it
    private static final String BELOW_EVERY_FIGURE = Double.toString(-Double.MAX_VALUE);

    /** The figures whose bar charts compare the parameter sets of a parameterized test. */
    private static final List<Metric> COMPARED_IN_CHARTS = List.of(Metric.PEAK_MEMORY, Metric.CPU_TIME,
            Metric.AVERAGE_CPU);

    /**
     * Up to this many tests, the table and every section are plain markup (readable without script, searchable
     * with Ctrl+F); beyond it they are packed (see {@link PackedDetails}), which keeps a page of 10,000 tests to a
     * size and a number of elements a browser opens quickly.
     */
    static final int INLINE_LIMIT = 200;

    /** Tests per packed chunk: enough repeated markup to compress well, little enough to unpack in milliseconds. */
    static final int CHUNK = 100;

    /** Rows of a packed table shown at a time. */
    static final int PAGE = 500;

    public String write(RunReport run) {
        return write(run, Runnable::run);
    }

    /**
     * As {@link #write(RunReport)}, with the packed sections of a large run rendered and compressed in chunks on
     * {@code executor} (they are two thirds of the page's cost at 10,000 tests); the page is the same byte for byte.
     * The calling thread only waits for the chunks, so the executor's threads never wait for one another.
     */
    public String write(RunReport run, Executor executor) {
        boolean inline = run.tests().size() <= INLINE_LIMIT;
        // packed, a test takes about a kilobyte: its first-page row and its share of the compressed blocks
        StringBuilder out = new StringBuilder(run.tests().size() * (inline ? 12_000 : 1_000) + 8_000);
        out.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Vitals report</title><style>").append(HtmlAssets.CSS).append("</style></head><body>");
        out.append("<header><h1>Vitals: resource usage</h1>");
        // the run's verdict first, in the first screenful of any window
        RunVerdict.of(run).render(out);
        out.append("<p class=\"muted\">").append(run.tests().size())
                .append(" tests · generated ").append(Html.escape(run.generatedAt().toString()));
        run.baseline().ifPresent(b -> out.append(b.history() ? " · run history <code>" : " · baseline <code>")
                .append(Html.escape(b.file())).append("</code>")
                .append(!b.found() ? (b.history() ? " (no builds yet)" : " (not found)")
                        : b.history() ? " (holds " + b.heldRuns() + " per test; each figure judged against the builds "
                                + "of its testbed)" : " (holds " + b.heldRuns() + " per test; the median is compared)"));
        out.append("</p></header>");
        AttentionSection.write(run, out);
        List<String> rows = new ArrayList<>();
        // what needs attention first, then the others, each in test order: the page opens on the failures
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < run.tests().size(); i++) {
                if (AttentionSection.needsAttention(run.tests().get(i)) == (pass == 0)) {
                    rows(i, run.tests().get(i), rows);
                }
            }
        }
        if (inline) {
            table(rows, "sortable", rows.size(), out);
        } else {
            packedTable(rows, out);
        }
        comparisons(run, inline, out);
        out.append("<h2>Tests</h2>");
        if (inline) {
            for (int i = 0; i < run.tests().size(); i++) {
                section(i, run.tests().get(i), out);
            }
        } else {
            packedSections(run, out, executor);
        }
        out.append("<script>").append(HtmlAssets.SCRIPT).append("</script></body></html>\n");
        return out.toString();
    }

    /**
     * The table with its first {@code shown} rows; a packed table gets the others from its block. Test, outcome
     * and budgets come first and stay in view (sticky); the figure columns scroll sideways inside the table's box,
     * never the page.
     */
    private static void table(List<String> rows, String css, int shown, StringBuilder out) {
        out.append("<p class=\"muted\">Failed and breached tests first; a heading sorts by its column.</p>")
                .append("<input type=\"checkbox\" id=\"allfigures\"><label for=\"allfigures\"> all ")
                .append(Metric.tabled().size()).append(" figure columns</label>")
                .append("<div class=\"scroll\"><table id=\"tests\" class=\"").append(css).append("\"><thead><tr>");
        for (String h : List.of("Test", "Outcome", "Budgets", "Container")) {
            out.append("<th>").append(h).append("</th>");
        }
        for (Metric metric : Metric.tabled()) {
            out.append("<th").append(columnClass(metric)).append(">").append(Html.escape(metric.heading()))
                    .append("</th>");
        }
        out.append("<th>% of limit</th>");
        out.append("</tr></thead><tbody>");
        rows.subList(0, shown).forEach(out::append);
        out.append("</tbody></table></div>");
    }

    /**
     * A large run's table: the first {@link #PAGE} rows as markup, all of them in one compressed block that the
     * page's script unpacks on load, to sort and to show page by page. Ten thousand rows laid out at once kept a
     * browser busy for seconds; a page of them takes milliseconds.
     */
    private static void packedTable(List<String> rows, StringBuilder out) {
        table(rows, "sortable packed", Math.min(PAGE, rows.size()), out);
        out.append("<p class=\"muted\" id=\"pager\" data-page=\"").append(PAGE).append("\">Showing ")
                .append(Math.min(PAGE, rows.size())).append(" of ").append(rows.size())
                .append(" rows; the page's script shows the others and sorts them all.</p>");
        PackedDetails all = PackedDetails.pack(rows);
        out.append("<script type=\"application/gzip\" id=\"rows\" data-e=\"").append(all.endsAttribute())
                .append("\">").append(all.data()).append("</script>");
    }

    /** A test's rows of the table: one per container, or one saying it was not measured. */
    private static void rows(int i, RunReport.Entry entry, List<String> rows) {
        TestResult r = entry.result();
        if (r.containers().isEmpty()) {
            StringBuilder out = new StringBuilder(1_000);
            out.append("<tr>");
            testCell(out, i, r);
            cell(out, r.outcome().name(), outcome(r, entry, "expected"));
            cell(out, -1, "–");
            cell(out, "", "–");
            cell(out, -1, "not measured");
            // the other figures and % of limit
            // (the first figure column, peak memory, says "not measured")
            for (Metric metric : Metric.tabled().subList(1, Metric.tabled().size())) {
                cell(out, -1, "–", columnClass(metric));
            }
            cell(out, -1, "–");
            out.append("</tr>");
            rows.add(out.toString());
        }
        for (ContainerResult c : r.containers()) {
            StringBuilder out = new StringBuilder(1_000);
            ResourceUsage u = c.usage();
            long breaches = c.budgets().stream().filter(b -> !b.passed()).count();
            double ofLimit = Figures.percentOfLimit(u.peakMemory(), u.memoryLimit()).orElse(-1.0);
            out.append("<tr>");
            testCell(out, i, r);
            cell(out, r.outcome().name(), outcome(r, entry, "expected"));
            cell(out, breaches * 1000 + c.budgets().size(), budgets(r, c, breaches));
            cell(out, c.name(), Html.escape(c.name()) + (c.overlap().isPresent()
                    ? " <span class=\"badge warn\" title=\"" + Html.escape(c.overlap().sentence(c.name()))
                            + "\">overlapped</span>" : ""));
            for (Metric metric : Metric.tabled()) {
                Optional<String> tooShort = Measurability.trendTooShort(metric, u);
                if (tooShort.isPresent()) {
                    // a slope of a few samples is no trend: a dash, and why on hover
                    cell(out, -Double.MAX_VALUE, "<span class=\"absent\" title=\"" + Html.escape(tooShort.get())
                            + "\">–</span>", columnClass(metric));
                    continue;
                }
                ReportedFigure figure = ReportedFigure.of(metric, u);
                // an unknown or unmeasured figure sorts below every known one; why it is missing shows on hover
                cell(out, figure.value().orElse(-Double.MAX_VALUE), figure.value().isPresent()
                        ? Html.escape(metric.format(figure.value().getAsDouble()))
                        : figure.notMeasured().map(why -> "<span class=\"absent\" title=\"" + Html.escape(why) + "\">"
                                + Html.escape(figure.missing("–", ReportedFigure.NOT_MEASURED_HERE)) + "</span>")
                                .orElse("–"), columnClass(metric));
            }
            cell(out, ofLimit, ofLimit < 0 ? "–" : bar(ofLimit));
            out.append("</tr>");
            rows.add(out.toString());
        }
    }

    /**
     * The test's name, never cut: the class (muted) and the method with its parameters wrap within the column, since
     * the end of a name ("repetition 3 of 5", "[2] batch 128") is often the only part that tells rows apart.
     */
    private static void testCell(StringBuilder out, int i, TestResult r) {
        String name = ReportNames.simpleClassName(r.className()) + " · " + ReportNames.label(r);
        cell(out, ReportNames.testKey(r), "<a href=\"#t" + i + "\" title=\"" + Html.escape(name) + "\">"
                + "<span class=\"cls\">" + Html.escape(ReportNames.simpleClassName(r.className())) + " · </span>"
                + Html.escape(ReportNames.label(r)) + "</a>");
    }

    /**
     * The budgets cell: breaches first; never a plain "ok" beside a fault, since budgets checked on a window the
     * container or its engine cut short say nothing of the rest of the test, and an OOM kill that failed the test
     * is what the reader needs to see; a budget this host or window could not measure is counted apart.
     */
    private static String budgets(TestResult r, ContainerResult c, long breaches) {
        Optional<ContainerFault> fault = c.fault();
        String faultWords = fault.map(f -> switch (f.kind()) {
            case OOM_KILL -> r.outcome() == TestResult.Outcome.PASSED ? "OOM kill allowed" : "OOM kill";
            case EXITED -> "exited early";
            case ENGINE_GONE -> "engine gone";
        }).orElse("");
        boolean allowed = faultWords.equals("OOM kill allowed");
        if (c.budgets().isEmpty()) {
            // an OOM kill the test expected is worth seeing, not alarming: amber, as a passed test's notes are
            return fault.isEmpty() ? "–" : "<span class=\"badge " + (allowed ? "warn" : "bad") + "\">" + faultWords
                    + "</span>";
        }
        // "N/M breached": N of the M budgets judged; one this host could not measure is neither, and counted apart
        // (BudgetTally: the console's and summary.md's words too)
        long unmeasured = c.budgets().stream().filter(b -> b.status() == BudgetStatus.NOT_MEASURABLE).count();
        long breachedJudged = c.budgets().stream().filter(b -> b.status() == BudgetStatus.BREACHED).count();
        String count = BudgetTally.of(c.budgets()).text(false)
                + (breachedJudged == 0 && fault.filter(ContainerFault::partialWindow).isPresent()
                        ? ", partial window" : "");
        boolean bad = breaches > 0 || fault.isPresent() && !allowed;
        String css = bad ? "bad" : unmeasured > 0 || fault.isPresent() ? "warn" : "good";
        return "<span class=\"badge " + css + "\">" + (faultWords.isEmpty() ? "" : faultWords + " · ") + count
                + "</span>";
    }

    private static String bar(double percent) {
        String css = percent >= 90 ? "bad" : percent >= 75 ? "warn" : "good";
        return "<span class=\"pct " + css + "\"><i style=\"width:" + Math.round(Math.min(100, percent)) + "%\"></i></span>"
                + Unit.PERCENT.format(percent);
    }

    static String outcome(TestResult r, RunReport.Entry entry) {
        return outcome(r, entry, "expected to fail, by its suite");
    }

    /** The outcome badge, with {@code expectedWords} on a fixture's (the table's narrow column says "expected"). */
    private static String outcome(TestResult r, RunReport.Entry entry, String expectedWords) {
        String css = r.outcome() == TestResult.Outcome.PASSED ? "good" : r.outcome() == TestResult.Outcome.FAILED
                ? "bad" : "warn";
        String regressed = entry.verdict().hasRegressions() ? " <span class=\"badge bad\">regressed</span>" : "";
        // a fixture another test runs and expects to fail: its red is no failure of the run
        String expected = entry.expectedToFailBy().map(by -> " <span class=\"badge expected\" title=\"run and"
                + " asserted by " + Html.escape(by) + ": expected to fail, by its suite\">" + expectedWords + "</span>")
                .orElse("");
        return "<span class=\"badge " + css + "\">" + r.outcome().name().toLowerCase(Locale.ROOT) + "</span>"
                + regressed + expected;
    }

    private static void cell(StringBuilder out, String sortText, String html) {
        cell(out, sortText, html, "");
    }

    /** A cell sorted by text: the test's key, its outcome, the container's name. */
    private static void cell(StringBuilder out, String sortText, String html, String attributes) {
        out.append("<td").append(attributes).append(" data-v=\"").append(Html.escape(sortText))
                .append("\">").append(html).append("</td>");
    }

    private static void cell(StringBuilder out, double sortValue, String html) {
        cell(out, sortValue, html, "");
    }

    /**
     * A cell sorted by a number. A whole number is written as one ("104857600", not "1.048576E8"): the page's
     * script parses either, and {@code Double.toString} was a sixth of the table's rendering at the run's end.
     */
    private static void cell(StringBuilder out, double sortValue, String html, String attributes) {
        out.append("<td").append(attributes).append(" data-v=\"");
        if (sortValue == -Double.MAX_VALUE) {
            out.append(BELOW_EVERY_FIGURE); // an unknown figure: a row often has several
        } else if (sortValue == Math.rint(sortValue) && Math.abs(sortValue) < 1e15) {
            out.append((long) sortValue);
        } else {
            out.append(sortValue);
        }
        out.append("\">").append(html).append("</td>");
    }

    // A figure column outside KEY_FIGURES is hidden until "all figures" is ticked.
    private static String columnClass(Metric metric) {
        return KEY_FIGURES.contains(metric) ? "" : " class=\"x\"";
    }

    private static void comparisons(RunReport run, boolean inline, StringBuilder out) {
        Map<String, List<TestResult>> byMethod = new LinkedHashMap<>();
        for (RunReport.Entry entry : run.tests()) {
            TestResult r = entry.result();
            if (r.parameters().isPresent() && !r.containers().isEmpty()) {
                byMethod.computeIfAbsent(r.className() + "#" + r.methodName(), k -> new ArrayList<>()).add(r);
            }
        }
        byMethod.values().removeIf(list -> list.size() < 2);
        if (byMethod.isEmpty()) {
            return;
        }
        List<String> sections = new ArrayList<>();
        byMethod.forEach((method, results) -> sections.add(comparison(method, results)));
        out.append("<h2>Parameterized tests compared</h2>");
        if (inline) {
            sections.forEach(out::append);
            return;
        }
        // Three bar charts per method add up to megabytes in a large run: they are drawn when asked for.
        PackedDetails packed = PackedDetails.pack(sections);
        out.append("<details id=\"compare\"><summary>").append(sections.size())
                .append(" methods ran with two or more parameter sets: open to draw their charts</summary></details>")
                .append("<script type=\"application/gzip\" id=\"cmp\" data-e=\"").append(packed.endsAttribute())
                .append("\">").append(packed.data()).append("</script>");
    }

    private static String comparison(String method, List<TestResult> results) {
        StringBuilder out = new StringBuilder(4_000);
        // The first container is the one compared; a test's other containers are in its own section.
        String container = results.get(0).containers().get(0).name();
        out.append("<section class=\"compare\"><h3>").append(Html.escape(method)).append(" <span class=\"muted\">")
                .append("container ").append(Html.escape(container)).append("</span></h3><div class=\"charts\">");
        for (Metric metric : COMPARED_IN_CHARTS) {
            BarChart chart = new BarChart(metric.heading(), metric::format);
            for (TestResult r : results) {
                chart.bar(r.parameters().orElse(""), metric.read(r.containers().get(0).usage()));
            }
            chart.render(out);
        }
        return out.append("</div></section>").toString();
    }

    /**
     * A large run's test sections: none is in the markup; each 100 tests' sections are one compressed block, and
     * the page's script unpacks a block and puts a section in place when a link (from the table or
     * <i>Needs attention</i>) or the address ({@code #t12}) asks for that test.
     */
    private static void packedSections(RunReport run, StringBuilder out, Executor executor) {
        out.append("<p class=\"muted\">A test's section (figures, budgets, charts, log tail) opens here when its"
                + " link in the table or under <i>Needs attention</i> is followed.</p><div id=\"sections\""
                + " data-chunk=\"").append(CHUNK).append("\"></div>");
        List<CompletableFuture<String>> chunks = new ArrayList<>();
        for (int first = 0; first < run.tests().size(); first += CHUNK) {
            int from = first;
            chunks.add(CompletableFuture.supplyAsync(() -> packedChunk(run, from), executor));
        }
        chunks.forEach(chunk -> out.append(chunk.join()));
    }

    /** The script element holding the sections of tests {@code first} to {@code first + CHUNK - 1}, compressed. */
    private static String packedChunk(RunReport run, int first) {
        List<String> sections = new ArrayList<>(CHUNK);
        for (int i = first; i < Math.min(run.tests().size(), first + CHUNK); i++) {
            sections.add(section(i, run.tests().get(i), new StringBuilder(16_000)).toString());
        }
        PackedDetails chunk = PackedDetails.pack(sections);
        return "<script type=\"application/gzip\" id=\"z" + first / CHUNK + "\" data-e=\"" + chunk.endsAttribute()
                + "\">" + chunk.data() + "</script>";
    }

    /**
     * A test's collapsed section, appended to {@code out}: its summary line, then its figures, budgets, charts and
     * log tail. An inline page passes itself, so that no section is built apart and copied in (200 buffers of 16 KB
     * at a run's end); a packed chunk passes one buffer per section, as it compresses them one by one.
     */
    private static StringBuilder section(int index, RunReport.Entry entry, StringBuilder out) {
        TestResult r = entry.result();
        out.append("<details id=\"t").append(index).append("\"><summary>")
                .append(outcome(r, entry)).append(' ')
                .append(Html.escape(ReportNames.simpleClassName(r.className()))).append(" · <b>")
                .append(Html.escape(ReportNames.label(r))).append("</b> <span class=\"muted\">")
                .append(Figures.duration(r.duration())).append(" · <a href=\"").append(Html.escape(entry.jsonPath()))
                .append("\">JSON</a></span></summary>");
        body(entry, out);
        return out.append("</details>");
    }

    private static void body(RunReport.Entry entry, StringBuilder out) {
        TestResult r = entry.result();
        out.append("<div class=\"body\">");
        if (!r.displayName().equals(ReportNames.label(r))) {
            out.append("<p>Display name: ").append(Html.escape(r.displayName())).append("</p>");
        }
        entry.expectedToFailBy().ifPresent(by -> out.append("<p class=\"muted\">A fixture: <code>")
                .append(Html.escape(by)).append("</code> runs this test on purpose and asserts that it fails; the run's"
                + " verdict counts it apart from the run's failures.</p>"));
        r.failureMessage().ifPresent(m -> out.append("<pre class=\"failure\">").append(Html.escape(m))
                .append("</pre>"));
        String stored = entry.verdict().history().isPresent() ? "History: " : "Baseline: ";
        for (String line : entry.verdict().lines()) {
            out.append("<p class=\"").append(line.contains("regressed") ? "bad" : "muted").append("\">").append(stored)
                    .append(Html.escape(line)).append("</p>");
        }
        // the test's own parts, one after the other: the figures' trends over the run history, then each container
        TrendCharts.render(entry.verdict(), out);
        for (ContainerResult c : r.containers()) {
            TestSection.container(c, out);
        }
        out.append("</div>");
    }
}
