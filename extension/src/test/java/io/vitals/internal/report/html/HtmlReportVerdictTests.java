package io.vitals.internal.report.html;

import static io.vitals.internal.report.ReportFixtures.budget;
import static io.vitals.internal.report.ReportFixtures.withBudgets;
import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.result.TestResult.Outcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The page's first glance as markup: the run's verdict line, the budgets cell's "N/M breached", the margin of each
 * breach under "Needs attention", one explaining chart per broken figure, no series for a figure the host did not
 * measure, and a fixture's expected failure counted apart. How it lays out in a browser is
 * {@link HtmlReportChromiumIT}'s.
 */
class HtmlReportVerdictTests {

    private static final String FIXTURE_OF = "BatchTooLargeOomIT.anUnexpectedOomKillFailsTheTestWithAnExplanation";

    private static RunReport run(List<TestResult> results, Optional<String> expectedBy) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x/" + r.methodName() + ".json", RegressionVerdict.none("k"),
                    r.outcome() == Outcome.FAILED ? expectedBy : Optional.empty()));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    private static String page(TestResult... results) {
        return new HtmlReport().write(run(List.of(results), Optional.empty()));
    }

    /** A failed test whose CPU time (17.9 s in the fixture) broke a 10 s budget, and whose block write was judged
     * on a cgroup v1 host that cannot measure it. */
    private static TestResult cpuTimeBreach(String method) {
        TestResult on = ReportFixtures.measuredBy(ReportFixtures.result("com.example.TrainTests", method),
                ProbeKind.HOST_CGROUP_V1, DataSize.ofMiB(3), DataSize.ZERO);
        double cpu = Metric.CPU_TIME.read(on.containers().get(0).usage());
        return withBudgets(on, Outcome.FAILED, List.of(budget(Metric.CPU_TIME, "10s", 10, cpu),
                budget(Metric.PEAK_PIDS, "40", 40, 44), budget(Metric.PEAK_MEMORY, "2GiB", 2.0 * (1L << 30),
                        Metric.PEAK_MEMORY.read(on.containers().get(0).usage())),
                budget(Metric.BLOCK_WRITE, "1GiB", 1L << 30, Double.NaN)));
    }

    @Test
    @DisplayName("the page opens on the run's verdict: tests failed and passed, budgets breached of those judged")
    void verdictFirst() {
        String html = page(ReportFixtures.result("com.example.T", "fine"), cpuTimeBreach("tooSlow"));

        int verdict = html.indexOf("<p id=\"verdict\" class=\"verdict bad\"><b>Run failed:</b> ");
        assertThat(verdict).isPositive().isLessThan(html.indexOf("<section class=\"attention\">"))
                .isLessThan(html.indexOf("<table id=\"tests\""));
        // fine: peakMemory and cpuTime ok; tooSlow: cpuTime and peakPids breached, peakMemory ok, blockWrite not
        // measurable (neither judged nor passed)
        assertThat(html).contains("<b>Run failed:</b> 1 of 2 tests failed, 1 passed · 2/5 budgets breached "
                + "(1 not measurable)</p>");
        assertThat(page(ReportFixtures.result("com.example.T", "fine")))
                .contains("<p id=\"verdict\" class=\"verdict good\"><b>Run passed:</b> 1 of 1 tests passed · "
                        + "0/2 budgets breached</p>");
    }

    @Test
    @DisplayName("the budgets cell counts breaches of the budgets judged; a not measurable one apart, never as ok")
    void breachedOfJudged() {
        String html = page(cpuTimeBreach("tooSlow"), withBudgets(ReportFixtures.result("com.example.T", "io"),
                Outcome.PASSED, List.of(budget(Metric.PEAK_PIDS, "100", 100, 44),
                        budget(Metric.BLOCK_WRITE, "1GiB", 1L << 30, Double.NaN))));
        String table = html.substring(html.indexOf("<tbody>"), html.indexOf("</tbody>"));

        assertThat(table).contains(">2/3 breached, 1 not measurable</span>")
                .contains("<span class=\"badge warn\">0/1 breached, 1 not measurable</span>")
                .doesNotContain("2/4").doesNotContain("2 ok");
    }

    @Test
    @DisplayName("'Needs attention' gives each breach's margin and has no scroll box of its own")
    void marginInAttention() {
        String html = page(cpuTimeBreach("tooSlow"));
        String attention = html.substring(html.indexOf("<section class=\"attention\">"),
                html.indexOf("</section>"));

        double cpu = Metric.CPU_TIME.read(ReportFixtures.result("com.example.T", "t").containers().get(0).usage());
        assertThat(attention).contains("cpuTime " + Metric.CPU_TIME.format(cpu) + " &gt; 10s <b class=\"margin\">("
                + String.format(java.util.Locale.ROOT, "%+.1f %%", 100 * (cpu - 10) / 10) + ")</b>")
                .contains("peakPids 44 &gt; 40 <b class=\"margin\">(+10.0 %)</b>");
        assertThat(HtmlAssets.CSS).doesNotContain("max-height:240px").contains(".attention ul{margin:6px 0;"
                + "padding-left:18px}");
    }

    @Test
    @DisplayName("each broken figure gets its own explaining chart with its budget line; an OOM kill its memory chart")
    void chartPerBrokenFigure() {
        String html = page(cpuTimeBreach("tooSlow"), ReportFixtures.oomKilled("com.example.T", "oom"));
        String glances = html.substring(html.indexOf("<div class=\"glances\">"), html.indexOf("<table id=\"tests\""));

        String cpuTime = glances.substring(glances.indexOf("<figure class=\"glance\" id=\"g0\">"),
                glances.indexOf("</figure>", glances.indexOf("id=\"g0\"")));
        assertThat(cpuTime).contains("aria-label=\"CPU time (cumulative)\"")
                .contains("<line class=\"m-breach\"").contains(">budget cpuTime 10s</text>");
        String pids = glances.substring(glances.indexOf("<figure class=\"glance\" id=\"g0-1\">"),
                glances.indexOf("</figure>", glances.indexOf("id=\"g0-1\"")));
        assertThat(pids).contains("aria-label=\"PIDs\"").contains(">budget peakPids 40</text>");
        // the OOM kill's memory chart, with the breached peakMemory budget, once: not a second memory chart
        assertThat(glances).contains("<figure class=\"glance\" id=\"g1\">").doesNotContain("id=\"g1-1\"");
        // the test's own section draws the CPU time chart too, as its cpuTime budget broke
        String section = html.substring(html.indexOf("<details id=\"t0\">"));
        assertThat(section).contains("aria-label=\"CPU time (cumulative)\"");
    }

    @Test
    @DisplayName("a series the host did not measure is not drawn: no block write line on cgroup v1")
    void unmeasuredSeriesNotDrawn() {
        String v1 = page(cpuTimeBreach("onV1"));
        String v2 = page(ReportFixtures.measuredBy(ReportFixtures.result("com.example.T", "onV2"),
                ProbeKind.HOST_CGROUP_V2, DataSize.ofMiB(3), DataSize.ofMiB(2)));

        String io = v1.substring(v1.indexOf("aria-label=\"I/O (cumulative)\""));
        io = io.substring(0, io.indexOf("</svg>"));
        assertThat(io).contains(">block read</text>").contains(">net rx</text>").doesNotContain("block write")
                .doesNotContain("class=\"s-bw\"");
        assertThat(v2).contains(">block write</text>").contains("class=\"s-bw\"");
    }

    @Test
    @DisplayName("a fixture's failure is marked as expected by its suite and counted apart in the verdict")
    void expectedFailureOfAFixture() {
        String html = new HtmlReport().write(run(List.of(ReportFixtures.result("com.example.T", "fine"),
                ReportFixtures.oomKilled("com.example.Suite$Fixture", "oom")), Optional.of(FIXTURE_OF)));

        assertThat(html).contains("<p id=\"verdict\" class=\"verdict good\"><b>Run passed:</b> 1 of 2 tests passed,"
                + " 1 failed as their suite expected · 1/4 budgets breached (1 of the breaches expected by their"
                + " suite)</p>");
        String expected = "<span class=\"badge bad\">failed</span> <span class=\"badge expected\" title=\"run"
                + " and asserted by " + FIXTURE_OF + ": expected to fail, by its suite\">";
        // in full in its section and under Needs attention, in a word in the table's narrow outcome column
        assertThat(html.substring(html.indexOf("<h2>Tests</h2>"))).contains(expected + "expected to fail, by its suite"
                + "</span>");
        assertThat(html.substring(html.indexOf("<tbody>"), html.indexOf("</tbody>"))).contains(expected
                + "expected</span>");
        assertThat(html).contains("A fixture: <code>" + FIXTURE_OF + "</code> runs this test on purpose");
    }

    @Test
    @DisplayName("a repeated test's rows keep their whole names: the repetition is never cut off")
    void namesKeepTheirTail() {
        List<TestResult> repeated = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            repeated.add(ReportFixtures.result("io.vitals.examples.CpuTimeAgainstHistoryIT", "oneEpochFiveTimes",
                    Optional.of("repetition " + i + " of 5"), 1.0));
        }
        String html = new HtmlReport().write(run(repeated, Optional.empty()));

        for (int i = 1; i <= 5; i++) {
            assertThat(html).contains("<span class=\"cls\">CpuTimeAgainstHistoryIT · </span>oneEpochFiveTimes "
                    + "repetition " + i + " of 5</a></td>");
        }
        assertThat(HtmlAssets.CSS).doesNotContain("line-clamp");
    }
}
