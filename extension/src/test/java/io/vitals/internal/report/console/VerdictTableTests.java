package io.vitals.internal.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.result.TestResult;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The default console table: the verdict first, in 120 columns, every figure one setting away. */
@DisplayName("Console: verdict-first table")
class VerdictTableTests {

    @Test
    @DisplayName("test, outcome and budgets lead, then the container and its main figures, within 120 columns")
    void verdictFirst() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");

        assertThat(new VerdictTable().render(List.of(ok)).lines().findFirst().orElseThrow())
                .matches("TEST +OUTCOME +BUDGETS +CONTAINER +CPU % +PEAK MEM / LIMIT +CPU TIME +WALL TIME");

        List<String> lines = new VerdictTable().render(List.of(ok, oom)).lines().toList();

        // the OOM kill's cell widens BUDGETS: wall time makes way, and the line under the table says so
        assertThat(lines.get(0)).matches("TEST +OUTCOME +BUDGETS +CONTAINER +CPU % +PEAK MEM / LIMIT +CPU TIME");
        assertThat(lines.get(1)).startsWith("train ").contains(" passed ", " 0/2 breached ", " tf ")
                .contains(ok.containers().get(0).usage().peakMemory().toDockerBinaryString() + " / 2GiB");
        assertThat(lines.get(2)).startsWith("oom ").contains(" FAILED ",
                " OOM KILL at 8.2 s; 1/2 breached: peakMemory ");
        assertThat(lines.get(3)).isEqualTo("(vitals.console=full prints every figure; left out to fit 120 columns: "
                + "WALL TIME)");
        assertThat(lines).hasSize(4).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(120));
        assertThat(lines.get(1).indexOf("passed")).isEqualTo(lines.get(0).indexOf("OUTCOME"));
        assertThat(lines.get(2).indexOf("OOM KILL")).isEqualTo(lines.get(0).indexOf("BUDGETS"));
    }

    @Test
    @DisplayName("'not measurable' is never counted as ok, and the budget's figure gets a column")
    void notMeasurableIsNoOk() {
        TestResult result = ReportFixtures.withoutGpu(ReportFixtures.result("com.example.IoTests", "writes"),
                List.of(notMeasurable()));

        List<String> lines = new VerdictTable().render(List.of(result)).lines().toList();

        assertThat(lines.get(0)).contains("BLOCK WRITE");
        assertThat(lines.get(1)).contains(" 0 judged, 1 not measurable: blockWrite ").doesNotContain(" ok");
    }

    @Test
    @DisplayName("a class whose setup failed: no figure columns, and why under the table, within 120 columns")
    void classError() {
        TestResult classFailed = new TestResult("[engine:junit-jupiter]/[class:com.example.TrainTests]",
                "com.example.TrainTests", "", "(class)", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of("the fixture's database could not be seeded: connection refused " + "x".repeat(200)
                        + "\n\tat somewhere"), ReportFixtures.START, Duration.ZERO, List.of());

        List<String> lines = new VerdictTable().render(List.of(classFailed)).lines().toList();

        assertThat(lines.get(0)).isEqualTo("TEST      OUTCOME   BUDGETS        CONTAINER");
        assertThat(lines.get(1)).isEqualTo("(class)   FAILED    not measured   --");
        assertThat(lines.get(2)).startsWith("(class): not measured: failed: the fixture's database could not be "
                + "seeded").endsWith("...").hasSize(120);
    }

    @Test
    @DisplayName("too wide: the least telling figures are left out and named; the name is never cut")
    void leavesFiguresOutToFit() {
        String longName = "[3] a parameterized test's invocation, told apart [batch=64, lr=0.1]";
        TestResult wide = ReportFixtures.result("com.example.TrainTests", "sweep", Optional.of(longName), 1.0);

        String table = new VerdictTable().render(List.of(wide));
        List<String> lines = table.lines().toList();

        assertThat(lines.get(1)).startsWith("sweep " + longName + "   passed");
        assertThat(lines.get(0)).doesNotContain("WALL TIME");
        assertThat(lines.subList(0, 2)).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(120));
        assertThat(lines.get(lines.size() - 1))
                .startsWith("(vitals.console=full prints every figure; left out to fit 120 columns: WALL TIME");
        // the full table still has every one of them
        assertThat(new ConsoleTable().render(List.of(wide)).lines().findFirst().orElseThrow())
                .contains("WALL TIME", "CPU TIME", "MEMORY HEADROOM");
        // a name longer than the line leaves room for is printed whole all the same: it tells the tests apart
        String tooLong = "x".repeat(130);
        assertThat(new VerdictTable().render(List.of(ReportFixtures.result("com.example.TrainTests", "sweep",
                Optional.of(tooLong), 1.0))).lines().toList().get(1)).contains(tooLong + "   passed");
    }

    @Test
    @DisplayName("every header the table prints is one of HEADERS, in its order")
    void headersAreKnown() {
        TestResult withBudget = ReportFixtures.withoutGpu(ReportFixtures.result("com.example.IoTests", "writes"),
                List.of(notMeasurable()));
        List<String> headers = List.of(new VerdictTable().render(List.of(withBudget)).lines().findFirst()
                .orElseThrow().split(" {2,}"));
        assertThat(VerdictTable.HEADERS).containsSubsequence(headers);
    }

    private static BudgetResult notMeasurable() {
        return new BudgetResult(Metric.BLOCK_WRITE, Optional.empty(), BudgetStatus.NOT_MEASURABLE,
                new Limit(Metric.BLOCK_WRITE, "10MiB", 10 << 20), OptionalDouble.of(0), OptionalDouble.empty(),
                "blkio", Optional.empty(), Optional.of("cgroup v1 does not count buffered writes"), false);
    }
}
