package io.vitals.internal.report.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MarkdownSummaryTests {

    /**
     * What a full row splits into at its unescaped pipes: the empty strings before the first and after the last,
     * test, container and outcome, one cell per figure of the model, memory limit and budgets.
     */
    private static final int ROW_PARTS = 2 + 3 + Metric.tabled().size() + 2;

    /** A run of {@code results} in this order, written to a.json, b.json and on, with no regression verdict. */
    private static RunReport run(TestResult... results) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            String key = String.valueOf((char) ('a' + i));
            entries.add(new RunReport.Entry(results[i], key + ".json", RegressionVerdict.none(key)));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    @Test
    @DisplayName("breaches come first, then one table per class with the expected columns")
    void breachesFirstThenTables() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.OtherTests", "oom");
        RunReport run = run(ok, oom);

        String md = new MarkdownSummary().write(run);

        int attention = md.indexOf("## Needs attention");
        int breach = md.indexOf("**Budget breached** `com.example.OtherTests#oom`");
        int firstTable = md.indexOf("## com.example.TrainTests");
        assertThat(attention).isPositive();
        assertThat(breach).isGreaterThan(attention).isLessThan(firstTable);
        assertThat(md).contains("**OOM kill**");
        // every figure of the model, in its order, between the fixed columns (the fixture's container used a GPU)
        assertThat(md.lines().filter(l -> l.startsWith("| Test |")).findFirst().orElseThrow())
                .isEqualTo("| Test | Container | Outcome | " + Metric.tabled().stream().map(Metric::heading)
                        .collect(Collectors.joining(" | ")) + " | Memory limit | Budgets |")
                .contains("| Outcome | Peak memory | Memory headroom | CPU time |", "| Average GPU SM utilization |");
        String row = md.lines().filter(l -> l.startsWith("| train ")).findFirst().orElseThrow();
        assertThat(row.split("(?<!\\\\)\\|", -1)).hasSize(ROW_PARTS);
        assertThat(row).contains(" | " + ok.containers().get(0).usage().peakMemory() + " | ")
                .contains(" | 2.0 GiB | 0/2 breached |");
        assertThat(md.lines().filter(l -> l.startsWith("| oom ")).findFirst().orElseThrow())
                .contains(":x: failed", ":x: 1/2 breached");
    }

    @Test
    @DisplayName("a line under the count names the host shapes of the run, the rows of the exactness table")
    void hostShapes() {
        TestResult v2 = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult api = ReportFixtures.result("com.example.TrainTests", "other");
        var c = api.containers().get(0);
        var onApi = new ContainerResult(c.name(), c.image(), c.limits(), c.usage(), c.probeDescription(),
                HostShape.engineApi(), c.measuredFromStart(), c.budgets(), c.fault(), c.logTail());
        api = ReportFixtures.withContainers(api, onApi);
        RunReport one = run(v2);
        RunReport two = run(v2, api, v2);

        assertThat(new MarkdownSummary().write(one).lines().toList().get(4)).isEqualTo(
                "Host shape: cgroup v2, kernel 6.12, root (`cgroup-v2-6.12-root`); see \"Exactness by host shape\" in "
                        + "docs/metrics.md for what is exact on it.");
        assertThat(new MarkdownSummary().write(two)).contains("Host shapes: cgroup v2, kernel 6.12, root "
                + "(`cgroup-v2-6.12-root`), remote Engine API (`engine-api`); see");
        RunReport none = run();
        assertThat(new MarkdownSummary().write(none)).doesNotContain("Host shape");
    }

    @Test
    @DisplayName("a test whose engine went away needs attention, and its row says partial window, not ok")
    void engineGoneNeedsAttention() {
        TestResult gone = ReportFixtures.engineGone("com.example.TrainTests", "gone");
        RunReport run = run(gone);

        String md = new MarkdownSummary().write(run);

        assertThat(md.indexOf("## Needs attention")).isPositive()
                .isLessThan(md.indexOf("- :electric_plug: **Docker engine gone, partial window** "
                        + "`com.example.TrainTests#gone` `tf`: the Docker engine tcp://127.0.0.1:23750 stopped "
                        + "answering during the test: last seen at 1.9 s, no answer at 2.4 s"));
        assertThat(md.lines().filter(l -> l.startsWith("| gone ")).findFirst().orElseThrow())
                .contains(":x: failed", ":warning: partial window, 0/2 breached in it").doesNotContain(" ok");
    }

    @Test
    @DisplayName("a test that failed before any container was measured needs attention and gets a row")
    void failedBeforeMeasuring() {
        TestResult measured = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult unmeasured = ReportFixtures.unmeasured("com.example.StartIT", "m", TestResult.Outcome.FAILED,
                "ContainerLaunchException: Container startup failed\n\tat ...", Instant.EPOCH,
                java.time.Duration.ofSeconds(3));
        RunReport run = run(measured, unmeasured);

        String md = new MarkdownSummary().write(run);

        assertThat(md).doesNotContain("No budget breaches")
                .contains("- :x: **Failed before any container was measured** `com.example.StartIT#m`: "
                        + "ContainerLaunchException: Container startup failed\n");
        int table = md.indexOf("## com.example.StartIT");
        assertThat(md.indexOf("**Failed before any container was measured**")).isLessThan(table);
        String row = md.substring(table).lines().filter(l -> l.startsWith("| m")).findFirst().orElseThrow();
        // "not measured" takes the first figure's cell; the other figures, memory limit and budgets are dashes
        assertThat(row).isEqualTo("| m | – | :x: failed | not measured |" + " – |".repeat(Metric.tabled().size() + 1));
        assertThat(row.split("(?<!\\\\)\\|", -1)).hasSize(ROW_PARTS);
    }

    @Test
    @DisplayName("a skipped test and a class whose setup failed are counted, need attention and get a row each")
    void skippedAndClassEntries() {
        TestResult measured = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult skipped = ReportFixtures.unmeasured("com.example.TrainTests", "gpu", TestResult.Outcome.SKIPPED,
                "no GPU on this runner", Instant.EPOCH, java.time.Duration.ZERO);
        TestResult classFailed = new TestResult("[engine:junit-jupiter]/[class:com.example.BadIT]",
                "com.example.BadIT", "", "BadIT", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of("@ResourceBudget(peakMemory = \"lots\") on method BadIT.test(): Invalid data size"),
                Instant.EPOCH, java.time.Duration.ZERO, List.of());
        RunReport run = run(measured, skipped, classFailed);

        String md = new MarkdownSummary().write(run);

        assertThat(md).startsWith("# Vitals: resource usage\n\n3 tests, 1 failed or aborted, 1 skipped.")
                .contains("- :fast_forward: **Skipped** `com.example.TrainTests#gpu`: no GPU on this runner\n")
                .contains("- :x: **Failed before any container was measured** `com.example.BadIT#(class)`: "
                        + "@ResourceBudget(peakMemory = \"lots\") on method BadIT.test(): Invalid data size\n")
                .contains("| gpu | – | skipped | not measured |")
                .contains("| (class) | – | :x: failed | not measured |");
    }

    @Test
    @DisplayName("a class whose containers used no GPU gets no GPU columns; one that did, keeps them")
    void gpuColumnsOnlyWhereSeen() {
        TestResult withGpu = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult noGpu = ReportFixtures.withoutGpu(
                ReportFixtures.result("com.example.CpuTests", "train"), List.of());
        RunReport run = run(withGpu, noGpu);

        List<String> lines = new MarkdownSummary().write(run).lines().toList();

        String gpuHeader = lines.get(lines.indexOf("## com.example.TrainTests") + 2);
        String cpuHeader = lines.get(lines.indexOf("## com.example.CpuTests") + 2);
        assertThat(gpuHeader).isEqualTo(MarkdownSummary.TABLE_HEADER).contains("GPU");
        assertThat(cpuHeader).startsWith("| Test | Container | Outcome | ").contains("CPU time").doesNotContain("GPU");
        String cpuRow = lines.get(lines.indexOf("## com.example.CpuTests") + 4);
        assertThat(cpuRow.split("(?<!\\\\)\\|", -1)).hasSameSizeAs(cpuHeader.split("\\|", -1));
    }

    @Test
    @DisplayName("a display name cannot break the table or inject HTML")
    void escapesCells() {
        assertThat(MarkdownSummary.cell("a|b <script>`x`")).isEqualTo("a\\|b &lt;script&gt;\\`x\\`");
    }

    @Test
    @DisplayName("an OOM kill its test allowed is noted for the record, not under 'Needs attention'")
    void allowedOomKill() {
        TestResult allowed = ReportFixtures.allowedOomKill("com.example.TrainTests", "allowed");
        RunReport run = run(allowed);

        String md = new MarkdownSummary().write(run);

        assertThat(md).doesNotContain("## Needs attention").contains("No budget breaches, regressions or faults.")
                .contains("Expected and allowed (`allowOomKill = true`), for the record:\n\n- :boom: **OOM kill** "
                        + "(allowed by the budget) `com.example.TrainTests#allowed`");
    }

    @Test
    @DisplayName("a failed OOM kill's budgets cell names the kill, never 'ok'; growth too short is a dash and a note")
    void oomCellAndGrowthTooShort() {
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");
        TestResult longRun = ReportFixtures.withPoints(ReportFixtures.result("com.example.TrainTests", "long"), 241);
        RunReport run = run(oom, longRun);

        String md = new MarkdownSummary().write(run);

        String oomRow = md.lines().filter(l -> l.startsWith("| oom ")).findFirst().orElseThrow();
        assertThat(oomRow).endsWith("| :boom: OOM kill, :x: 1/2 breached |").contains(" | –[^nm1] | ");
        assertThat(md).contains("[^nm1]: memory growth: too short to estimate a trend (a window shorter than 10 s or "
                + "with fewer than 20 points); a budget on it is not measurable");
        var u = longRun.containers().get(0).usage();
        assertThat(md.lines().filter(l -> l.startsWith("| long ")).findFirst().orElseThrow())
                .contains("| " + Metric.MEMORY_GROWTH.format(Metric.MEMORY_GROWTH.read(u)) + " |");
    }

    @Test
    @DisplayName("a fixture its suite expects to fail is counted apart from the run's failures")
    void expectedFixturesCountedApart() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult fixture = ReportFixtures.oomKilled("com.example.BatchTooLarge", "oom");
        RunReport run = new RunReport(Instant.EPOCH, List.of(new RunReport.Entry(ok, "a.json",
                RegressionVerdict.none("a")), new RunReport.Entry(fixture, "b.json", RegressionVerdict.none("b"),
                Optional.of("BatchTooLargeOomIT.anUnexpectedOomKillFailsTheTestWithAnExplanation"))), Optional.empty());

        assertThat(new MarkdownSummary().write(run)).startsWith("# Vitals: resource usage\n\n2 tests, 0 failed or "
                + "aborted, 1 failed as their suites expect (fixtures).");
    }
}
