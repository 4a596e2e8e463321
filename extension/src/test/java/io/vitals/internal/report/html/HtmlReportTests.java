package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlReportTests {

    private static RunReport run(List<TestResult> results) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x/" + r.methodName() + ".json", RegressionVerdict.none("k")));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    @Test
    @DisplayName("display names cannot inject HTML")
    void escapes() {
        TestResult evil = ReportFixtures.result("com.example.T", "m", Optional.of("<script>alert(1)</script>\"'&"),
                1.0);

        String html = new HtmlReport().write(run(List.of(evil)));

        assertThat(html).doesNotContain("<script>alert").contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;");
        assertThat(html).doesNotContain("<b>tensorflow</b>");
    }

    @Test
    @DisplayName("a test that failed before any container was measured needs attention and gets a row")
    void failedBeforeMeasuring() {
        TestResult unmeasured = ReportFixtures.unmeasured("com.example.StartIT", "m", TestResult.Outcome.FAILED,
                "ContainerLaunchException: Container startup failed\n\tat ...", Instant.EPOCH,
                java.time.Duration.ofSeconds(3));

        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "m"), unmeasured)));

        assertThat(html).contains("<h2>Needs attention</h2>")
                .contains("Failed before any container was measured: <a href=\"#t1\">com.example.StartIT#m</a>: "
                        + "ContainerLaunchException: Container startup failed</li>")
                .contains("<span class=\"cls\">StartIT · </span>m</a></td><td data-v=\"FAILED\">"
                        + "<span class=\"badge bad\">failed</span></td>"
                        + "<td data-v=\"-1\">–</td><td data-v=\"\">–</td><td data-v=\"-1\">not measured</td>");
    }

    @Test
    @DisplayName("each container names its row of the exactness table and the cell of every column that applied")
    void hostShapeAndCells() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "m"),
                ReportFixtures.oomKilled("com.example.T", "oom"))));

        assertThat(html).contains("<p class=\"facts\">host shape <b>" + ReportFixtures.SHAPE.label() + "</b> ("
                + ReportFixtures.SHAPE.id() + ")");
        assertThat(html).contains(" · CPU time: exact").contains(" · block write: exact").contains(" · OOM kills: exact");
        // a peak is either the started-by-test column or the shared one, never both
        Pattern peakCells = Pattern.compile(" · peak, container (started by the test|shared by tests): ");
        assertThat(peakCells.matcher(html).results().count()).isEqualTo(2);
    }

    @Test
    @DisplayName("a container with GPU samples gets a GPU memory and a GPU utilization chart; one without, neither")
    void gpuLanes() {
        TestResult gpu = ReportFixtures.result("com.example.T", "gpu");
        TestResult none = ReportFixtures.withoutGpu(ReportFixtures.result("com.example.T", "cpu"), List.of());

        String withGpu = new HtmlReport().write(run(List.of(gpu)));
        String without = new HtmlReport().write(run(List.of(none)));

        assertThat(withGpu).contains("aria-label=\"GPU memory (the container&#39;s processes)\"")
                .contains("aria-label=\"GPU utilization %\"").contains("device (device-wide)</text>")
                .contains("aria-label=\"GPU power, W (device-wide)\"")
                .contains("aria-label=\"GPU temperature, °C (hottest device)\"")
                .contains("aria-label=\"SM clock, MHz (device-wide)\"").contains("class=\"s-lane0\"")
                .contains(" · GPUs requested: device=0");
        assertThat(without).doesNotContain("aria-label=\"GPU memory").doesNotContain("class=\"s-lane0\"");
    }

    @Test
    @DisplayName("a window of two readings (a test shorter than a sampling interval) gets no charts and says why")
    void tooFewReadingsForCharts() {
        TestResult twoReadings = ReportFixtures.withPoints(ReportFixtures.result("com.example.T", "quick"), 2);
        TestResult threeReadings = ReportFixtures.withPoints(ReportFixtures.result("com.example.T", "slow"), 3);

        String two = new HtmlReport().write(run(List.of(twoReadings)));
        String three = new HtmlReport().write(run(List.of(threeReadings)));

        assertThat(two).doesNotContain("<svg class=\"chart\"").contains("<p class=\"muted\">No charts: two readings"
                + " over 50 ms, the window's first and last; a chart needs 3. The figures above are from them.</p>");
        TestResult oneReading = ReportFixtures.withPoints(ReportFixtures.result("com.example.T", "cut"), 1);
        assertThat(new HtmlReport().write(run(List.of(oneReading)))).doesNotContain("<svg class=\"chart\"")
                .contains("<p class=\"muted\">No charts: one reading; a chart needs 3. The figures above are from it."
                        + "</p>");
        assertThat(three).contains("<svg class=\"chart\" viewBox=\"0 0 600 170\" role=\"img\""
                + " aria-label=\"Memory\">").doesNotContain("No charts");
    }

    @Test
    @DisplayName("the page is self-contained: nothing is loaded from a URL")
    void selfContained() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "m"))));

        assertThat(html).doesNotContainPattern("(src|href)=\"(https?:)?//").doesNotContain("@import")
                .doesNotContain("url(");
        assertThat(html).contains("<svg").contains("<table id=\"tests\"");
    }

    @Test
    @DisplayName("each chart path has at most 300 points, even from a 5,000-point timeline")
    void downsampled() {
        TestResult big = ReportFixtures.result("com.example.T", "m");
        var c = big.containers().get(0);
        var longUsage = ReportFixtures.usage("tf", 1.0, 5000);
        var container = new io.vitals.internal.result.ContainerResult(c.name(), c.image(), c.limits(), longUsage,
                c.probeDescription(), c.hostShape(), c.measuredFromStart(), c.budgets(), c.fault(), c.logTail());
        TestResult result = ReportFixtures.withContainers(big, container);

        String html = new HtmlReport().write(run(List.of(result)));

        Matcher paths = Pattern.compile("<path class=\"[^\"]*\" d=\"([^\"]*)\"").matcher(html);
        int count = 0;
        while (paths.find()) {
            count++;
            assertThat(paths.group(1).chars().filter(ch -> ch == 'l').count() + 1).isLessThanOrEqualTo(300);
        }
        // memory, CPU, PIDs, four I/O series, and the fixture's GPU lanes: memory, two utilisations (no SM share),
        // power, temperature, SM clock (no CPU time chart: the fixture's cpuTime budget passed)
        assertThat(count).isEqualTo(13);
    }

    @Test
    @DisplayName("the downsampler keeps the peak")
    void keepsPeak() {
        double[] y = new double[10_000];
        y[4321] = 99;
        int[] kept = Downsampler.indices(y, 300);
        assertThat(kept.length).isLessThanOrEqualTo(300);
        assertThat(kept).contains(4321, 0, 9999);
    }

    @Test
    @DisplayName("OOM kill and phases are marked; parameterized tests get a comparison chart")
    void marksAndComparison() {
        List<TestResult> results = List.of(ReportFixtures.oomKilled("com.example.T", "oom"),
                ReportFixtures.result("com.example.T", "train", Optional.of("[1] batch=32"), 0.6),
                ReportFixtures.result("com.example.T", "train", Optional.of("[2] batch=64"), 1.0));

        String html = new HtmlReport().write(run(results));

        assertThat(html).contains(">OOM kill</text>").contains(">train</text>").contains(">evaluate</text>")
                .contains("Parameterized tests compared").contains("[2] batch=64");
    }

    @Test
    @DisplayName("a large page packs its table rows and test sections; unpacked, they are an inline page's markup")
    void packsLargePages() throws IOException {
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i <= HtmlReport.INLINE_LIMIT; i++) {
            results.add(i % 10 == 0 ? ReportFixtures.oomKilled("com.example.T", "oom" + i)
                    : ReportFixtures.result("com.example.T", "train", Optional.of("[" + i + "] <b>"), 0.5 + i / 100.0));
        }

        String html = new HtmlReport().write(run(results));
        String inline = new HtmlReport().write(run(results.subList(0, HtmlReport.INLINE_LIMIT)));

        // no chart but the few that explain failures at the top (GLANCE_LIMIT of them)
        String glances = html.substring(html.indexOf("<div class=\"glances\">"), html.indexOf("<p class=\"muted\">",
                html.indexOf("<div class=\"glances\">")));
        assertThat(Pattern.compile("<svg class=\"chart\"").matcher(glances).results().count())
                .isEqualTo(AttentionSection.GLANCE_LIMIT);
        assertThat(html.replace(glances, "")).doesNotContain("<svg class=\"chart\"").doesNotContain("<details id=\"t")
                .contains("<table id=\"tests\" class=\"sortable packed\">").contains("<div id=\"sections\"");
        assertThat(inline).contains("<table id=\"tests\" class=\"sortable\">").doesNotContain("application/gzip");
        List<String> inlineRows = List.of(inline.substring(inline.indexOf("<tbody>") + 7, inline.indexOf("</tbody>"))
                .split("(?=<tr>)"));
        List<String> rows = unpack(html, "rows");
        // the same rows, failed and breached ones first in both: the last test (an OOM kill) joins those
        assertThat(rows).hasSize(results.size()).containsAll(inlineRows);
        int first = (int) run(results).tests().stream().filter(AttentionSection::needsAttention).count();
        assertThat(first).isGreaterThan(21);
        assertThat(rows.subList(0, first)).allSatisfy(row -> assertThat(row).containsPattern(
                "badge bad\">(failed|\\d+/\\d+ breached)"));
        assertThat(rows.subList(first, rows.size())).allSatisfy(row -> assertThat(row)
                .doesNotContain("badge bad\">"));
        // the first page of rows is markup, for a reader without script
        assertThat(html.substring(html.indexOf("<tbody>") + 7, html.indexOf("</tbody>")))
                .isEqualTo(String.join("", rows.subList(0, Math.min(HtmlReport.PAGE, rows.size()))));

        // the comparison charts wait, packed, until their section is opened
        assertThat(html).doesNotContain("<svg class=\"bars\"").contains("<details id=\"compare\">");
        int compared = inline.indexOf("<section class=\"compare\">");
        assertThat(unpack(html, "cmp")).containsExactly(inline.substring(compared, inline.indexOf("<h2>Tests</h2>")))
                .allSatisfy(piece -> assertThat(piece).contains("<svg class=\"bars\""));

        List<String> sections = new ArrayList<>(unpack(html, "z0"));
        sections.addAll(unpack(html, "z1"));
        sections.addAll(unpack(html, "z2"));
        assertThat(sections).hasSize(results.size());
        for (int i : new int[] { 0, 1, 99, 100, HtmlReport.INLINE_LIMIT - 1 }) {
            int start = inline.indexOf("<details id=\"t" + i + "\">");
            int end = i + 1 < HtmlReport.INLINE_LIMIT ? inline.indexOf("<details id=\"t" + (i + 1) + "\">")
                    : inline.indexOf("<script>");
            assertThat(sections.get(i)).as("test %d", i).isEqualTo(inline.substring(start, end))
                    .contains("<svg class=\"chart\"");
        }
    }

    @Test
    @DisplayName("a large page whose chunks are rendered on a pool is the same page, byte for byte")
    void chunksOnAPool() throws InterruptedException {
        List<TestResult> results = new ArrayList<>();
        for (int i = 0; i < 3 * HtmlReport.CHUNK + 7; i++) {
            results.add(ReportFixtures.result("com.example.T", "train", Optional.of("[" + i + "]"), 0.5 + i / 100.0));
        }
        RunReport run = run(results);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            assertThat(new HtmlReport().write(run, pool)).isEqualTo(new HtmlReport().write(run));
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    @DisplayName("an OOM kill the test allowed (it passed) is no item of 'Needs attention'; a failing one is")
    void allowedOomKillNeedsNoAttention() {
        String allowed = new HtmlReport().write(run(List.of(ReportFixtures.allowedOomKill("com.example.T", "ok"))));
        String failed = new HtmlReport().write(run(List.of(ReportFixtures.oomKilled("com.example.T", "oom"))));

        assertThat(allowed).doesNotContain("<h2>Needs attention</h2>").doesNotContain("<figure class=\"glance\"")
                .contains("<span class=\"badge warn\">OOM kill allowed · 0/1 breached</span>");
        assertThat(new HtmlReport().write(run(List.of(ReportFixtures.allowedOomKill("com.example.T", "ok", false)))))
                .as("without budgets too, an allowed OOM kill is amber, not red")
                .contains("<span class=\"badge warn\">OOM kill allowed</span>");
        assertThat(failed).contains("<h2>Needs attention</h2>").contains("was OOM-killed at 8.2 s");
    }

    @Test
    @DisplayName("the budgets cell names a fault before the count and never says 'ok' beside it")
    void budgetsCellAfterFault() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.exitedEarly("com.example.T", "exits"),
                ReportFixtures.oomKilled("com.example.T", "oom"), ReportFixtures.engineGone("com.example.T", "gone"))));
        String table = html.substring(html.indexOf("<tbody>"), html.indexOf("</tbody>"));

        assertThat(table).contains(">exited early · 0/2 breached, partial window</span>")
                .contains(">OOM kill · 1/2 breached</span>").contains(">engine gone · 0/2 breached, partial window</span>")
                .doesNotContain(" ok</span>");
    }

    @Test
    @DisplayName("each failed or breached test shows its explaining chart above the table, unopened; a passing one not")
    void explainingChartAtAGlance() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "fine"),
                ReportFixtures.oomKilled("com.example.T", "oom"))));

        int glance = html.indexOf("<figure class=\"glance\" id=\"g1\">");
        assertThat(glance).isPositive().isLessThan(html.indexOf("<table id=\"tests\""));
        String card = html.substring(glance, html.indexOf("</figure>", glance));
        assertThat(card).contains("aria-label=\"Memory\"").contains(">OOM kill</text>").contains("href=\"#t1\"");
        assertThat(html).doesNotContain("id=\"g0\"");
        // and the table opens on the failure: its first row is the failed test's
        String body = html.substring(html.indexOf("<tbody>"));
        assertThat(body.indexOf("href=\"#t1\"")).isLessThan(body.indexOf("href=\"#t0\""));
    }

    @Test
    @DisplayName("a chart's y axis is the data's: a 96 MiB curve under a 2 GiB limit tops out below 256 MiB")
    void yAxisScaledToData() {
        double[] x = { 0, 1, 2, 3 };
        double[] y = { 40 * 1024 * 1024, 70 * 1024 * 1024, 96 * 1024 * 1024, 80 * 1024 * 1024 };
        LineChart far = new LineChart("Memory", v -> io.vitals.DataSize.ofBytes(Math.round(v)).toString())
                .series("memory", "s-mem", x, y).horizontal("limit 2.0 GiB", "m-limit", 2L * 1024 * 1024 * 1024);
        StringBuilder out = new StringBuilder();
        far.render(out);

        assertThat(far.top()).isLessThan(256.0 * 1024 * 1024).isGreaterThanOrEqualTo(96.0 * 1024 * 1024);
        assertThat(out).contains(">above the scale: limit 2.0 GiB</text>").doesNotContain("<line class=\"m-limit\"");
        // a limit within twice the data's top is drawn, and the scale reaches it
        LineChart near = new LineChart("Memory", String::valueOf).series("memory", "s-mem", x, y)
                .horizontal("limit 128 MiB", "m-limit", 128 * 1024 * 1024);
        StringBuilder drawn = new StringBuilder();
        near.render(drawn);
        assertThat(near.top()).isGreaterThan(128.0 * 1024 * 1024);
        assertThat(drawn).contains("<line class=\"m-limit\"").doesNotContain("above the scale");
    }

    @Test
    @DisplayName("memory growth of a window too short for a trend is a dash with the reason on hover")
    void growthTooShort() {
        TestResult longRun = ReportFixtures.withPoints(ReportFixtures.result("com.example.T", "long"), 241);
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "short"), longRun)));

        assertThat(html).containsPattern("<span class=\"absent\" title=\"memoryGrowth is too short to estimate a "
                + "trend: the window holds 200 points over 9.95 s[^\"]*\">–</span>");
        io.vitals.ResourceUsage u = longRun.containers().get(0).usage();
        assertThat(html).contains(">" + Metric.MEMORY_GROWTH.format(Metric.MEMORY_GROWTH.read(u)) + "</td>");
    }

    private static List<String> unpack(String html, String id) throws IOException {
        Matcher block = Pattern.compile("<script type=\"application/gzip\" id=\"" + id + "\" data-e=\"([0-9,]+)\">"
                + "([A-Za-z0-9+/=]+)</script>").matcher(html);
        assertThat(block.find()).as("block %s", id).isTrue();
        String text = gunzip(Base64.getDecoder().decode(block.group(2)));
        List<String> pieces = new ArrayList<>();
        int start = 0;
        for (int end : Arrays.stream(block.group(1).split(",")).mapToInt(Integer::parseInt).toArray()) {
            pieces.add(text.substring(start, end));
            start = end;
        }
        assertThat(start).isEqualTo(text.length());
        return pieces;
    }

    private static String gunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
