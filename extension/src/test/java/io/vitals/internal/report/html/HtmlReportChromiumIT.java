package io.vitals.internal.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Opens the HTML report of ~50 tests in headless Chromium: the page must load without console errors and render
 * to a non-trivial screenshot. Fails (does not skip) without Chromium, since an unchecked page is what this is for.
 * Set {@code -Dvitals.screenshot=docs/report-screenshot.png} to keep the screenshot.
 */
class HtmlReportChromiumIT {

    @TempDir
    Path dir;

    @Test
    @DisplayName("the report loads in Chromium without console errors and renders")
    void rendersInChromium() throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        Path reports = dir.resolve("vitals");
        List<String> warnings = new ArrayList<>();
        try (ReportSession session = new ReportSession(ReportSettings.from(key -> Optional.ofNullable(Map.of(
                MeasureResources.REPORT_DIR_KEY, reports.toString(), MeasureResources.CONSOLE_KEY, "off").get(key))),
                Clock.systemUTC(), s -> { }, warnings::add)) {
            for (int i = 0; i < 50; i++) {
                TestResult result = i == 0 ? ReportFixtures.oomKilled("com.example.TrainingTests", "trainTooLarge")
                        : i < 6 ? ReportFixtures.result("com.example.TrainingTests", "train",
                                Optional.of("[" + i + "] batch=" + (16 << i)), 0.4 + i * 0.15)
                        : ReportFixtures.result("com.example.Service" + (i / 10) + "Tests", "case" + i,
                                Optional.empty(), 0.3 + (i % 9) / 10.0);
                session.testFinished(result);
            }
        }
        assertThat(warnings).isEmpty();
        // Open the first test sections, so the screenshot shows charts as well as the table.
        Path page = reports.resolve("index.html");
        String html = Files.readString(page);
        Files.writeString(page, html.replaceFirst("<details id=\"t0\">", "<details id=\"t0\" open>"));

        Path screenshot = dir.resolve("screenshot.png");
        String log = chromium.screenshot(page, screenshot, "1400,1000", "screenshot");

        List<String> consoleErrors = log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught"))
                .collect(Collectors.toList());
        assertThat(consoleErrors).as("console output of the page; full log:%n%s", log).isEmpty();
        assertThat(screenshot).as("screenshot; chromium log:%n%s", log).exists();
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).as("screenshot size").isGreaterThan(30_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");

        String keep = System.getProperty("vitals.screenshot");
        if (keep != null && !keep.isBlank()) {
            Files.copy(screenshot, Path.of(keep), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    @DisplayName("a 10,000-test page opens, shows a page of its table, and a section unpacks into the same charts")
    void opensLargePageAndUnpacksOnDemand() throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        List<RunReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            TestResult r = i % 10 == 0 ? ReportFixtures.oomKilled("com.example.Big" + (i / 20) + "Tests", "oom" + i)
                    : ReportFixtures.result("com.example.Big" + (i / 20) + "Tests", "train",
                            Optional.of("[" + i + "] batch=" + (i % 7) * 32), 0.5 + (i % 13) / 10.0);
            entries.add(new RunReport.Entry(r, "x.json", RegressionVerdict.none("k" + i)));
        }
        Path page = dir.resolve("index.html");
        Files.writeString(page, new HtmlReport().write(new RunReport(Instant.EPOCH, entries, Optional.empty())));
        // A test of the last chunk, OOM-killed so its charts carry every kind of mark; the address opens it.
        int opened = 9_990;
        String inlinePage = new HtmlReport().write(new RunReport(Instant.EPOCH, List.of(entries.get(opened)),
                Optional.empty()));
        // its section (the page's top also shows its explaining chart, which the packed page has as well)
        String inline = inlinePage.substring(inlinePage.indexOf("<details id=\"t0\">"));

        HeadlessChromium.Dump dump = chromium.dumpDom(page.toUri() + "#t" + opened, "dump", 10_000);
        double seconds = chromium.firstFrameSeconds(page);
        System.out.printf(Locale.ROOT, "index_html_10000_tests_mb=%.2f%n", Files.size(page) / 1e6);
        System.out.printf(Locale.ROOT, "index_html_open_chromium_s=%.2f%n", seconds);
        System.out.printf(Locale.ROOT, "(navigation start to the first frame after load, in the page; Chromium's own"
                + " start and the DOM dump with the opened section took %.2f s)%n", dump.nanos() / 1e9);

        assertThat(dump.consoleLines())
                .as("console output of the page").isEmpty();
        int at = dump.dom().indexOf("<details id=\"t" + opened + "\"");
        assertThat(at).as("section t%d in the DOM", opened).isPositive();
        String section = dump.dom().substring(at, dump.dom().indexOf("</div></details>", at));
        assertThat(section).contains(" open=");
        // memory, CPU, PIDs and I/O, and the fixture's five GPU charts (memory, utilisation, power, temperature, clock)
        assertThat(HeadlessChromium.matches("<svg class=\"chart\"", section)).as("charts drawn").hasSize(9);
        // the same paths (so the same points) and the same labels as the chart of an inline page
        assertThat(HeadlessChromium.matches("<path class=\"[^\"]+\" d=\"([^\"]+)\"", section))
                .isEqualTo(HeadlessChromium.matches("<path class=\"[^\"]+\" d=\"([^\"]+)\"", inline)).hasSize(13);
        // (the DOM dump writes an apostrophe as it is, the page as &#39;)
        assertThat(HeadlessChromium.matches("<text class=\"[^\"]+\" x=\"\\d+\" y=\"\\d+\">([^<]+)<", section))
                .isEqualTo(HeadlessChromium.matches("<text class=\"[^\"]+\" x=\"\\d+\" y=\"\\d+\">([^<]+)<", inline).stream()
                        .map(label -> label.replace("&#39;", "'")).toList())
                .contains("OOM kill", "limit 2.0 GiB");
        // a section nobody opened stays packed; the table shows its first page, unpacked
        assertThat(dump.dom()).doesNotContain("<details id=\"t5\"").contains("Showing 500 of 10000 rows.")
                .contains("<details id=\"compare\">").doesNotContain("<svg class=\"bars\"");
        String body = dump.dom().substring(dump.dom().indexOf("<tbody>"), dump.dom().indexOf("</tbody>"));
        assertThat(HeadlessChromium.matches("<tr>", body)).hasSize(500);

        // Sorting a packed table sorts all its rows, not the page shown: click "Peak memory" (after test, outcome,
        // budgets and container) twice (descending) once
        // the rows are unpacked (the pager's button appears then), and the largest of 10,000 comes first. Opening
        // the comparisons draws their bar charts.
        Path sorting = dir.resolve("sorting.html");
        // (an observer, not a timer: timers would use up the virtual time budget before the unpacking is done)
        Files.writeString(sorting, Files.readString(page).replace("</body>", "<script>new MutationObserver("
                + "function(m,o){if(document.querySelector('#pager button')){o.disconnect();"
                + "var th=document.querySelectorAll('#tests th')[4];th.click();th.click();"
                + "document.getElementById('compare').open=true;}})"
                + ".observe(document.getElementById('pager'),{childList:true});</script></body>"));
        HeadlessChromium.Dump sortedDump = chromium.dumpDom(sorting.toUri().toString(), "dump", 10_000);
        assertThat(sortedDump.consoleLines())
                .as("console output of the page").isEmpty();
        String sorted = sortedDump.dom();
        assertThat(HeadlessChromium.matches("<svg class=\"bars\"", sorted)).hasSize(3 * 500);
        List<Double> peaks = HeadlessChromium.matches("<tr>(?:<td data-v=\"[^\"]*\">.*?</td>){4}<td data-v=\""
                + "([^\"]+)\"", sorted.substring(sorted.indexOf("<tbody>"), sorted.indexOf("</tbody>")))
                .stream().map(Double::parseDouble).collect(Collectors.toList());
        double largest = entries.stream().mapToDouble(e -> e.result().containers().get(0).usage().peakMemory()
                .toBytes()).max().orElseThrow();
        assertThat(peaks).hasSize(500).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(peaks.get(0)).isEqualTo(largest);
    }

    /**
     * What failed, why, and the chart that shows it, in the first viewport at 1280 and at 1920 px: in a run of 50
     * tests where tests 25 (OOM-killed, a budget breached) and 30 (failed, 96 MiB under a 2 GiB limit) failed, the
     * outcome and budgets cells of their rows and their explaining charts are inside the window without scrolling
     * or clicking, the page never scrolls sideways, and the memory chart of test 30 is scaled to its data.
     */
    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({ "1280,800", "1920,1080" })
    @DisplayName("the failed tests' outcome, budgets and explaining chart are in the first viewport")
    void failuresAtAGlance(int width, int height) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        List<RunReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            TestResult r = i == 25 ? ReportFixtures.oomKilled("com.example.TrainingTests", "trainTooLarge")
                    : i == 30 ? small("com.example.ServiceTests", "smallButFailed")
                    : ReportFixtures.result("com.example.Service" + (i / 10) + "Tests",
                            "case" + i + "WithAParameterizedNameLongEnoughToWrapInItsColumn", Optional.empty(),
                            0.3 + (i % 9) / 10.0);
            entries.add(new RunReport.Entry(r, "x.json", RegressionVerdict.none("k" + i)));
        }
        Path page = dir.resolve("glance.html");
        // the probe reads the layout once the page has loaded and puts it where --dump-dom shows it
        Files.writeString(page, new HtmlReport().write(new RunReport(Instant.EPOCH, entries, Optional.empty()))
                .replace("</body>", "<script>window.addEventListener('load',function(){"
                        + "var w=innerWidth,h=innerHeight,out={w:w,h:h,scrollW:document.documentElement.scrollWidth};"
                        + "function seen(el){if(!el){return 'missing';}var r=el.getBoundingClientRect();"
                        + "if(r.width<=0||r.height<=0||r.left<0||r.top<0||r.right>w||r.bottom>h){"
                        + "return 'outside '+JSON.stringify(r);}"
                        + "var at=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);"
                        + "return (at&&(el===at||el.contains(at)))?'seen':'covered by '+(at&&at.outerHTML.slice(0,80));}"
                        + "[25,30].forEach(function(t){"
                        + "var a=document.querySelector('#tests a[href=\"#t'+t+'\"]'),row=a&&a.closest('tr');"
                        + "out['outcome'+t]=seen(row&&row.cells[1]);out['budgets'+t]=seen(row&&row.cells[2]);"
                        + "out['chart'+t]=seen(document.querySelector('#g'+t+' svg'));"
                        + "out['label'+t]=document.querySelector('#g'+t+' svg').getAttribute('aria-label');});"
                        + "var ys=Array.prototype.slice.call(document.querySelectorAll('#g30 svg text.yl'));"
                        + "ys.sort(function(a,b){return +a.getAttribute('y')-+b.getAttribute('y');});"
                        + "out.top30=ys[0].textContent;"
                        + "document.body.setAttribute('data-probe',JSON.stringify(out));});</script></body>"));
        JsonNode seen = chromium.probe(page, width, height, "glance");

        assertThat(seen.get("w").asInt()).as("window width").isEqualTo(width);
        assertThat(seen.get("scrollW").asInt()).as("page width: no sideways scrolling").isLessThanOrEqualTo(width);
        for (int t : new int[] { 25, 30 }) {
            assertThat(seen.get("outcome" + t).asText()).as("outcome cell of test %d at %dx%d", t, width, height)
                    .isEqualTo("seen");
            assertThat(seen.get("budgets" + t).asText()).as("budgets cell of test %d at %dx%d", t, width, height)
                    .isEqualTo("seen");
            assertThat(seen.get("chart" + t).asText()).as("explaining chart of test %d at %dx%d", t, width, height)
                    .isEqualTo("seen");
        }
        assertThat(seen.get("label25").asText()).isEqualTo("Memory");
        // 96 MiB under a 2 GiB limit: the axis is the data's, not the limit's
        DataSize top = DataSize.parse(seen.get("top30").asText().replace(" ", ""));
        assertThat(top).as("top tick %s", seen.get("top30").asText()).isLessThan(DataSize.ofMiB(256))
                .isGreaterThanOrEqualTo(DataSize.ofMiB(90));

        String keep = System.getProperty("vitals.glance.screenshots");
        if (keep != null && !keep.isBlank()) {
            chromium.screenshot(page, Path.of(keep, "glance-" + width + ".png"), width + "," + height, "shot",
                    "--hide-scrollbars");
        }
    }

    /**
     * The daily glance, laid out: in a run with a test repeated five times, seven tests that each broke three
     * budgets (21 items under "Needs attention") and one that broke cpuTime and peakPids on a cgroup v1 host, the
     * run's verdict is in the first viewport; the table's key columns fit the window with no sideways scrolling and
     * no column cut at its edge; each repetition's name is shown whole, inside its cell; "Needs attention" has no
     * scroll box of its own and shows each breach's margin; the cpuTime breach has its own chart with the budget
     * line; the I/O chart of the cgroup v1 test draws no block write series, which that host does not measure.
     */
    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({ "1280,800", "1920,1080" })
    @DisplayName("verdict first, key columns fit, names whole, margins shown, a chart per broken figure")
    void dailyGlance(int width, int height) throws Exception {
        HeadlessChromium chromium = new HeadlessChromium(dir);
        List<RunReport.Entry> entries = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            entries.add(entry(ReportFixtures.result("io.vitals.examples.CpuTimeAgainstHistoryIT", "oneEpochFiveTimes",
                    Optional.of("repetition " + i + " of 5"), 1.0)));
        }
        for (int i = 0; i < 7; i++) {
            TestResult r = ReportFixtures.result("com.example.Service" + i + "Tests", "handlesTheMorningPeak",
                    Optional.empty(), 1.0);
            double peak = Metric.PEAK_MEMORY.read(r.containers().get(0).usage());
            entries.add(entry(ReportFixtures.withBudgets(r, TestResult.Outcome.FAILED, List.of(
                    ReportFixtures.budget(Metric.PEAK_MEMORY, "512MiB", 512.0 * (1 << 20), peak),
                    ReportFixtures.budget(Metric.CPU_TIME, "5s", 5, 9.345),
                    ReportFixtures.budget(Metric.PEAK_PIDS, "32", 32, 44)))));
        }
        TestResult v1 = ReportFixtures.measuredBy(ReportFixtures.result("com.example.TrainTests", "trainsOnV1"),
                io.vitals.ProbeKind.HOST_CGROUP_V1, DataSize.ofMiB(3), DataSize.ZERO);
        entries.add(entry(ReportFixtures.withBudgets(v1, TestResult.Outcome.FAILED, List.of(
                ReportFixtures.budget(Metric.CPU_TIME, "10s", 10, Metric.CPU_TIME.read(v1.containers().get(0)
                        .usage())),
                ReportFixtures.budget(Metric.BLOCK_WRITE, "1GiB", 1L << 30, Double.NaN)))));
        int v1Index = entries.size() - 1;
        for (int i = 0; i < 20; i++) {
            entries.add(entry(ReportFixtures.result("com.example.Quiet" + (i / 5) + "Tests", "case" + i,
                    Optional.empty(), 0.3 + (i % 9) / 10.0)));
        }
        Path page = dir.resolve("daily.html");
        Files.writeString(page, new HtmlReport().write(new RunReport(Instant.EPOCH, entries, Optional.empty()))
                .replace("</body>", "<script>window.addEventListener('load',function(){"
                        + "var w=innerWidth,h=innerHeight,out={w:w,scrollW:document.documentElement.scrollWidth};"
                        + "function seen(el){if(!el){return 'missing';}var r=el.getBoundingClientRect();"
                        + "if(r.width<=0||r.height<=0||r.left<0||r.top<0||r.right>w||r.bottom>h){"
                        + "return 'outside '+JSON.stringify(r);}"
                        + "var at=document.elementFromPoint(r.left+r.width/2,r.top+r.height/2);"
                        + "return (at&&(el===at||el.contains(at)))?'seen':'covered';}"
                        + "out.verdict=seen(document.getElementById('verdict'));"
                        + "out.verdictText=document.getElementById('verdict').textContent;"
                        + "var box=document.querySelector('.scroll');"
                        + "out.tableOverflow=box.scrollWidth-box.clientWidth;"
                        + "var ths=document.querySelectorAll('#tests thead th'),last=null;"
                        + "ths.forEach(function(th){if(th.getBoundingClientRect().width>0){last=th;}});"
                        + "out.lastHeading=last.textContent;"
                        + "out.lastHeadingCut=last.getBoundingClientRect().right-box.getBoundingClientRect().right;"
                        // each repetition's name: its text ends inside its cell, and the cell hides nothing
                        + "out.names=[];document.querySelectorAll('#tests td:first-child a').forEach(function(a){"
                        + "if(a.textContent.indexOf('oneEpochFiveTimes')<0){return;}"
                        + "var td=a.closest('td'),c=td.getBoundingClientRect(),range=document.createRange();"
                        + "range.selectNodeContents(a);var rects=range.getClientRects(),end=rects[rects.length-1];"
                        + "out.names.push({text:a.innerText.replace(/\\s+/g,' '),"
                        + "inside:end.right<=c.right+0.5&&end.bottom<=c.bottom+0.5&&end.left>=c.left-0.5,"
                        + "hidden:td.scrollHeight>td.clientHeight+1||td.scrollWidth>td.clientWidth+1});});"
                        + "var ul=document.querySelector('.attention ul');"
                        + "out.items=ul.children.length;out.innerScroll=ul.scrollHeight-ul.clientHeight;"
                        + "out.overflowY=getComputedStyle(ul).overflowY;"
                        + "out.margins=(ul.textContent.match(/\\(\\+[0-9.]+ %\\)/g)||[]).length;"
                        + "out.cpuTimeChart=!!document.querySelector("
                        + "'figure.glance svg[aria-label=\"CPU time (cumulative)\"] line.m-breach');"
                        + "var io=document.querySelector('#t" + v1Index + " svg[aria-label=\"I/O (cumulative)\"]');"
                        + "out.v1BlockRead=!!io.querySelector('path.s-br');"
                        + "out.v1BlockWrite=!!io.querySelector('path.s-bw');"
                        + "document.body.setAttribute('data-probe',JSON.stringify(out));});</script></body>"));
        JsonNode seen = chromium.probe(page, width, height, "daily");

        assertThat(seen.get("w").asInt()).as("window width").isEqualTo(width);
        assertThat(seen.get("verdict").asText()).as("the verdict at %dx%d", width, height).isEqualTo("seen");
        assertThat(seen.get("verdictText").asText())
                .isEqualTo("Run failed: 8 of 33 tests failed, 25 passed · 22/72 budgets breached (1 not measurable)");
        assertThat(seen.get("scrollW").asInt()).as("page width: no sideways scrolling").isLessThanOrEqualTo(width);
        assertThat(seen.get("tableOverflow").asInt()).as("the table's key columns fit at %d px", width)
                .isLessThanOrEqualTo(0);
        assertThat(seen.get("lastHeading").asText()).isEqualTo("% of limit");
        assertThat(seen.get("lastHeadingCut").asDouble()).as("the last column is not cut at the edge")
                .isLessThanOrEqualTo(0.5);
        List<String> names = new ArrayList<>();
        seen.get("names").forEach(name -> {
            assertThat(name.get("inside").asBoolean()).as("the end of %s inside its cell", name).isTrue();
            assertThat(name.get("hidden").asBoolean()).as("nothing of %s hidden", name).isFalse();
            names.add(name.get("text").asText());
        });
        assertThat(names).containsExactly(
                "CpuTimeAgainstHistoryIT · oneEpochFiveTimes repetition 1 of 5",
                "CpuTimeAgainstHistoryIT · oneEpochFiveTimes repetition 2 of 5",
                "CpuTimeAgainstHistoryIT · oneEpochFiveTimes repetition 3 of 5",
                "CpuTimeAgainstHistoryIT · oneEpochFiveTimes repetition 4 of 5",
                "CpuTimeAgainstHistoryIT · oneEpochFiveTimes repetition 5 of 5");
        assertThat(seen.get("items").asInt()).as("items under Needs attention").isGreaterThanOrEqualTo(22);
        assertThat(seen.get("overflowY").asText()).isEqualTo("visible");
        assertThat(seen.get("innerScroll").asInt()).as("Needs attention scrolls inside itself by")
                .isLessThanOrEqualTo(0);
        // 7 tests x 3 breaches, and the cpuTime breach on cgroup v1
        assertThat(seen.get("margins").asInt()).as("breaches shown with their margin").isEqualTo(22);
        assertThat(seen.get("cpuTimeChart").asBoolean()).as("a CPU time chart with the breached budget's line")
                .isTrue();
        assertThat(seen.get("v1BlockRead").asBoolean()).isTrue();
        assertThat(seen.get("v1BlockWrite").asBoolean()).as("block write, not measured on cgroup v1, drawn").isFalse();
    }

    private static RunReport.Entry entry(TestResult r) {
        return new RunReport.Entry(r, "x.json", RegressionVerdict.none(r.uniqueId()));
    }

    /** A failed test whose container peaked near 96 MiB under the fixture's 2 GiB limit. */
    private static TestResult small(String className, String method) {
        TestResult r = ReportFixtures.result(className, method, Optional.empty(), 0.09);
        return new TestResult(r.uniqueId(), className, method, r.displayName(), Optional.empty(),
                TestResult.Outcome.FAILED, Optional.of("expected: 200 but was: 500"), r.startedAt(), r.duration(),
                r.containers().stream().map(c -> new io.vitals.internal.result.ContainerResult(c.name(), c.image(),
                        c.limits(), c.usage(), c.probeDescription(), c.hostShape(), c.measuredFromStart(), List.of(),
                        c.fault(), c.logTail())).toList());
    }
}
