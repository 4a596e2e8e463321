package io.vitals.internal.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.GpuUsage;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConsoleTableTests {

    @Test
    @DisplayName("a test no container was measured for gets a row with its outcome and the first line of why")
    void unmeasured() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult failed = ReportFixtures.unmeasured("com.example.TrainTests", "m", TestResult.Outcome.FAILED,
                "setup broke\n\tat somewhere", ReportFixtures.START, java.time.Duration.ZERO);

        List<String> lines = new ConsoleTable().render(List.of(ok, failed)).lines().toList();

        // (the fixture's 10 s window is just short of a trend: a note under the table says so)
        assertThat(lines).hasSize(4);
        assertThat(lines.get(2)).startsWith("m ").endsWith("NOT MEASURED: FAILED: setup broke");
        assertThat(lines.get(2).indexOf("--")).isEqualTo(lines.get(0).indexOf("CONTAINER"));
        assertThat(lines.get(2).indexOf("FAILED")).isEqualTo(lines.get(0).indexOf("OUTCOME"));
    }

    @Test
    @DisplayName("a test whose engine went away: the budgets cell names the fault and the partial window, never ok")
    void engineGoneIsNoOk() {
        TestResult gone = ReportFixtures.engineGone("com.example.TrainTests", "gone");

        String row = new ConsoleTable().render(List.of(gone)).lines().toList().get(1);

        assertThat(row).endsWith("ENGINE GONE at 2.4 s (partial window); 0/2 breached").doesNotContain(" ok");
    }

    @Test
    @DisplayName("columns and number formats follow docker stats")
    void dockerStyle() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");
        ResourceUsage u = ok.containers().get(0).usage();

        String table = new ConsoleTable().render(List.of(ok, oom));

        List<String> lines = table.lines().toList();
        // docker's columns, then one per tabled figure of the metric model in its order (the fixture has them all)
        String ownColumns = Metric.tabled().stream().filter(m -> !ConsoleTable.IN_DOCKER_COLUMNS.contains(m))
                .map(m -> " +" + Pattern.quote(m.label().toUpperCase(Locale.ROOT))).collect(Collectors.joining());
        assertThat(ownColumns).contains("MEMORY HEADROOM", "CPU TIME", "MAJOR PAGE FAULTS");
        assertThat(lines.get(0)).matches("TEST +CONTAINER +CPU % +MEM USAGE / LIMIT +MEM % +NET I/O +BLOCK I/O +PIDS"
                + " +PEAK MEM" + ownColumns + " +OUTCOME +BUDGETS");
        assertThat(lines.get(1)).startsWith("train").contains(" tf ")
                .contains(u.averageCpuPercent().toDockerString())
                .contains(u.after().memoryUsage().toDockerBinaryString() + " / 2GiB")
                // I/O in IEC units, unlike docker stats: "MB" in a budget is binary, so the table must not print it
                .contains(u.networkReceived().toDockerBinaryString() + " / " + u.networkSent().toDockerBinaryString())
                .contains(u.blockRead().toDockerBinaryString() + " / " + u.blockWrite().toDockerBinaryString())
                .contains("971.7KiB / 155.5KiB").doesNotContain("kB").doesNotContain("MB")
                .contains(u.peakMemory().toDockerBinaryString())
                // figures docker stats has no column for follow, in docker's formats where it has one
                .contains(u.memoryHeadroom().orElseThrow().toDockerString())
                .contains(Metric.CPU_TIME.format(Metric.CPU_TIME.read(u)))
                .endsWith("0/2 breached");
        assertThat(lines.get(2)).endsWith("OOM KILL at 8.2 s; 1/2 breached: peakMemory");
        // the outcome has a column of its own, lined up under its heading
        assertThat(lines.get(1).indexOf("passed")).isEqualTo(lines.get(0).indexOf("OUTCOME"));
        assertThat(lines.get(2).indexOf("FAILED")).isEqualTo(lines.get(0).indexOf("OUTCOME"));
        // Columns line up: every row has CONTAINER at the same position.
        assertThat(lines.get(1).indexOf(" tf ") + 1).isEqualTo(lines.get(0).indexOf("CONTAINER"));
    }

    @Test
    @DisplayName("a figure no container has gets no column, unless a container budgets it: then its cell says why")
    void columnsOfFiguresNobodyHas() {
        TestResult withGpu = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult noGpu = ReportFixtures.withoutGpu(withGpu, List.of());

        assertThat(new ConsoleTable().render(List.of(noGpu)).lines().findFirst().orElseThrow())
                .contains("CPU TIME", "WALL TIME").doesNotContain("GPU");
        // one container on a GPU brings the columns back for the whole table
        assertThat(new ConsoleTable().render(List.of(noGpu, withGpu)).lines().toList())
                .first().asString().contains("PEAK GPU MEMORY", "AVERAGE GPU UTILIZATION", "GPU ENERGY");
        // a budget on a GPU figure keeps its column, where the cell says why it could not be judged
        BudgetResult gpuBudget = BudgetResult.unknown(Limit.parse(Metric.PEAK_GPU_MEMORY, "1GiB"), Optional.empty(),
                "nvidia-smi", "no GPU visible");
        List<String> budgeted = new ConsoleTable().render(List.of(ReportFixtures.withoutGpu(withGpu, List.of(gpuBudget))))
                .lines().toList();
        assertThat(budgeted.get(0)).contains("PEAK GPU MEMORY").doesNotContain("GPU ENERGY");
        assertThat(budgeted.get(1)).contains("no GPU visible");
    }

    @Test
    @DisplayName("never 'ok' budgets beside an OOM kill or an early exit: the fault first, and the outcome column")
    void faultsBeforeBudgets() {
        List<String> lines = new ConsoleTable().render(List.of(
                ReportFixtures.exitedEarly("com.example.TrainTests", "exits"),
                ReportFixtures.allowedOomKill("com.example.TrainTests", "allowed"))).lines().toList();

        assertThat(lines.get(1)).contains(" FAILED ")
                .endsWith("EXITED EARLY at 3.0 s (partial window); 0/2 breached").doesNotContain(" ok");
        // an OOM kill its budget allowed: the test passed, and the cell still names the kill before the count
        assertThat(lines.get(2)).contains(" passed ").endsWith("OOM KILL at 8.2 s; 0/1 breached")
                .doesNotContain(" ok");
    }

    @Test
    @DisplayName("a class whose setup failed gets no figure columns: no GPU columns for a class that measured nothing")
    void classErrorKeepsTheTableNarrow() {
        TestResult classFailed = new TestResult("[engine:junit-jupiter]/[class:com.example.TrainTests]",
                "com.example.TrainTests", "", "(class)", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of("the fixture could not be seeded"), ReportFixtures.START, java.time.Duration.ZERO,
                List.of());

        List<String> lines = new ConsoleTable().render(List.of(classFailed)).lines().toList();

        assertThat(lines.get(0)).doesNotContain("GPU").doesNotContain("WALL TIME");
        assertThat(lines.get(1)).endsWith("NOT MEASURED: FAILED: the fixture could not be seeded");
    }

    @Test
    @DisplayName("memory growth of a window too short for a trend: a marked dash and a note, never a rate")
    void growthTooShort() {
        TestResult shortRun = ReportFixtures.result("com.example.TrainTests", "short");
        TestResult longRun = ReportFixtures.withPoints(ReportFixtures.result("com.example.TrainTests", "long"), 241);
        ResourceUsage longUsage = longRun.containers().get(0).usage();

        List<String> lines = new ConsoleTable().render(List.of(shortRun, longRun)).lines().toList();

        int column = lines.get(0).indexOf("MEMORY GROWTH");
        assertThat(lines.get(1).substring(column)).startsWith(ConsoleTable.TOO_SHORT_MARK + " ");
        assertThat(lines.get(2).substring(column)).startsWith(Metric.MEMORY_GROWTH.unit()
                .formatDocker(Metric.MEMORY_GROWTH.read(longUsage)));
        assertThat(lines).contains(ConsoleTable.TOO_SHORT_NOTE);
        assertThat(ConsoleTable.TOO_SHORT_NOTE).contains("too short to estimate a trend");
        // a table of long windows only has no note
        assertThat(new ConsoleTable().render(List.of(longRun))).doesNotContain("too short");
    }
}
