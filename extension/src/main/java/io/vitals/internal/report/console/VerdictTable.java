package io.vitals.internal.report.console;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * The console table of one test class by default ({@code vitals.console=table}): the verdict first, in 120 columns.
 * TEST, OUTCOME and BUDGETS lead, so that what a reader needs is the first thing a CI log viewer or an 80-to-120
 * column terminal shows; then the container and the figures most tests are about (CPU %, the peak against the memory
 * limit, CPU and wall time), and a column for each other figure a budget in the table judges, so that a broken
 * budget's figure is on screen. Where the table would still be wider than {@value #WIDTH} columns, the figures are
 * left out from the least telling, and a line under the table names them; the test's name is never cut, since it
 * is what tells tests apart. Every figure is one setting away: {@code vitals.console=full} prints
 * {@link ConsoleTable}.
 */
@API(status = INTERNAL, since = "0.1")
public final class VerdictTable {

    /** The widest line the table aims for: a CI log viewer's or a terminal's usual width. */
    public static final int WIDTH = 120;

    /** The columns every table has, in this order. */
    static final List<String> LEADING = List.of("TEST", "OUTCOME", "BUDGETS", "CONTAINER");

    static final String PEAK_AND_LIMIT = "PEAK MEM / LIMIT";

    /** The figures shown whether or not a budget judges them, in their order. */
    private static final List<Metric> ALWAYS = List.of(Metric.AVERAGE_CPU, Metric.PEAK_MEMORY, Metric.CPU_TIME,
            Metric.WALL_TIME);

    /** Left out first when the table is too wide: the least telling first. Budgeted figures go after these. */
    private static final List<Metric> LEAVE_OUT_FIRST = List.of(Metric.WALL_TIME, Metric.CPU_TIME,
            Metric.AVERAGE_CPU);

    /** Every header a table may have, in their order: the docs' tables are checked against it. */
    static final List<String> HEADERS = Stream.of(LEADING.stream(), Stream.of("CPU %", PEAK_AND_LIMIT),
            budgetedCandidates().stream().map(VerdictTable::header), Stream.of("CPU TIME", "WALL TIME"))
            .flatMap(s -> s).toList();

    /** The table, the notes under it, and, when figures were left out to fit, which ones and how to see them. */
    public String render(List<TestResult> results) {
        List<ContainerResult> containers = results.stream().flatMap(r -> r.containers().stream()).toList();
        List<Metric> figures = new ArrayList<>();
        Set<Metric> budgeted = EnumSet.noneOf(Metric.class);
        containers.forEach(c -> c.budgets().forEach(b -> budgeted.add(b.metric())));
        if (!containers.isEmpty()) {
            // without a container (a class whose setup failed) there is no figure to show
            figures.addAll(List.of(Metric.AVERAGE_CPU, Metric.PEAK_MEMORY));
            budgetedCandidates().stream().filter(budgeted::contains).forEach(figures::add);
            figures.addAll(List.of(Metric.CPU_TIME, Metric.WALL_TIME));
        }
        List<Metric> leftOut = new ArrayList<>();
        List<List<String>> rows = rows(results, figures);
        for (Metric candidate : leaveOutOrder(figures, budgeted)) {
            if (TabLayout.longestLine(rows) <= WIDTH) {
                break;
            }
            figures.remove(candidate);
            leftOut.add(candidate);
            rows = rows(results, figures);
        }
        StringBuilder out = new StringBuilder(TabLayout.render(rows));
        for (TestResult result : results) {
            if (!result.isMeasured()) {
                out.append(fitted(ConsoleTable.oneLine(ReportNames.label(result)) + ": not measured: "
                        + result.outcome().name().toLowerCase(Locale.ROOT) + reason(result))).append('\n');
            }
        }
        ConsoleTable.overlapNotes(results, out);
        if (!leftOut.isEmpty()) {
            // the way to see them first, so that a cut keeps it
            out.append(fitted("(vitals.console=full prints every figure; left out to fit " + WIDTH + " columns: "
                    + String.join(", ", leftOut.stream().map(VerdictTable::header).toList()) + ")")).append('\n');
        }
        return out.toString();
    }

    /** The figures a budget may judge that {@link #ALWAYS} does not show, in the metrics' order. */
    private static List<Metric> budgetedCandidates() {
        return Metric.budgetable().stream().filter(m -> !ALWAYS.contains(m)).toList();
    }

    /**
     * The order in which {@code figures} are left out: those of {@link #LEAVE_OUT_FIRST} no budget judges, then the
     * rest from right to left, the peak last: a figure a budget judges stays longest.
     */
    private static List<Metric> leaveOutOrder(List<Metric> figures, Set<Metric> budgeted) {
        List<Metric> order = new ArrayList<>(LEAVE_OUT_FIRST.stream()
                .filter(m -> figures.contains(m) && !budgeted.contains(m)).toList());
        for (int i = figures.size() - 1; i >= 0; i--) {
            if (!order.contains(figures.get(i)) && figures.get(i) != Metric.PEAK_MEMORY) {
                order.add(figures.get(i));
            }
        }
        if (figures.contains(Metric.PEAK_MEMORY)) {
            order.add(Metric.PEAK_MEMORY);
        }
        return order;
    }

    private static String header(Metric metric) {
        return metric == Metric.PEAK_MEMORY ? PEAK_AND_LIMIT
                : metric == Metric.AVERAGE_CPU ? "CPU %" : metric.label().toUpperCase(Locale.ROOT);
    }

    private static List<List<String>> rows(List<TestResult> results, List<Metric> figures) {
        List<List<String>> rows = new ArrayList<>();
        List<String> headers = new ArrayList<>(LEADING);
        figures.forEach(metric -> headers.add(header(metric)));
        rows.add(headers);
        for (TestResult result : results) {
            if (!result.isMeasured()) {
                List<String> row = new ArrayList<>(List.of(ConsoleTable.oneLine(ReportNames.label(result)),
                        ConsoleTable.outcome(result), "not measured", "--"));
                figures.forEach(metric -> row.add("--"));
                rows.add(row);
            }
            for (ContainerResult container : result.containers()) {
                List<String> row = new ArrayList<>(List.of(ConsoleTable.oneLine(ReportNames.label(result)),
                        ConsoleTable.outcome(result), ConsoleTable.budgets(container.budgets(), container.fault()),
                        ConsoleTable.oneLine(container.name())
                                + (container.overlap().isPresent() ? " " + ConsoleTable.OVERLAP_MARK : "")));
                figures.forEach(metric -> row.add(cell(metric, container.usage())));
                rows.add(row);
            }
        }
        return rows;
    }

    private static String cell(Metric metric, ResourceUsage usage) {
        if (metric == Metric.PEAK_MEMORY) {
            return ConsoleTable.docker(metric, usage) + " / "
                    + usage.memoryLimit().map(DataSize::toDockerBinaryString).orElse("--");
        }
        return ConsoleTable.docker(metric, usage);
    }

    private static String reason(TestResult result) {
        return result.failureMessage().map(m -> m.strip().lines().findFirst().orElse("")).filter(s -> !s.isEmpty())
                .map(s -> ": " + ConsoleTable.oneLine(s)).orElse("");
    }

    /** A note under the table, cut to {@value #WIDTH} columns: the reports have it whole. */
    private static String fitted(String note) {
        return note.length() <= WIDTH ? note : note.substring(0, WIDTH - 3) + "...";
    }
}
