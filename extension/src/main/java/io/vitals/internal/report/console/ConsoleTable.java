package io.vitals.internal.report.console;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetTally;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.ShownFigures;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.units.DurationParser;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * The full {@code docker stats}-style table of one test class ({@code vitals.console=full}; the default is the
 * verdict first, {@link VerdictTable}): one row per test and container, with docker's own number
 * formats (binary sizes for memory, decimal sizes for I/O, two-decimal percentages). CPU % is the test's average,
 * MEM USAGE the usage at its end, PIDS the peak. Every figure docker's columns do not show follows in a column of
 * its own, headed by its label, so that the table holds every {@link Metric}; then the test's OUTCOME and its
 * BUDGETS, where a fault is named before any budget count.
 *
 * <p>Columns are laid out as docker's tabwriter does (minimum width 10, padding 3), so the table lines up with
 * what people already read.
 */
@API(status = INTERNAL, since = "0.1")
public final class ConsoleTable {

    /** The figures shown in docker's own columns (CPU %, NET I/O, BLOCK I/O, PIDS, PEAK MEM). */
    public static final Set<Metric> IN_DOCKER_COLUMNS = EnumSet.of(Metric.AVERAGE_CPU, Metric.NETWORK_RECEIVED,
            Metric.NETWORK_SENT, Metric.BLOCK_READ, Metric.BLOCK_WRITE, Metric.PEAK_PIDS, Metric.PEAK_MEMORY);

    /** Every other figure, one column each after docker's. */
    static final List<Metric> OWN_COLUMNS = Metric.tabled().stream().filter(m -> !IN_DOCKER_COLUMNS.contains(m))
            .toList();

    /** The headers when every figure is shown. */
    static final List<String> HEADERS = headers(OWN_COLUMNS);

    /** A memory growth cell whose window is too short for a trend; a line under the table says why. */
    static final String TOO_SHORT_MARK = "--*";

    /** Under a table with a {@link #TOO_SHORT_MARK}: what it means. */
    static final String TOO_SHORT_NOTE = TOO_SHORT_MARK + " " + Measurability.TREND_RULE;

    /** After a container's name: its window overlapped another test's; a line under the table names them. */
    static final String OVERLAP_MARK = "*";

    // the last column is not padded, but a stack of wrapped lines would bury the table
    private static final int MAX_REASON = 120;

    private static List<String> headers(List<Metric> ownColumns) {
        return Stream.of(
                Stream.of("TEST", "CONTAINER", "CPU %", "MEM USAGE / LIMIT", "MEM %", "NET I/O", "BLOCK I/O", "PIDS",
                        "PEAK MEM"),
                ownColumns.stream().map(m -> m.label().toUpperCase(Locale.ROOT)),
                Stream.of("OUTCOME", "BUDGETS")).flatMap(s -> s).toList();
    }

    /** The table; a figure none of these containers has or budgets gets no column ({@link ShownFigures}). */
    public String render(List<TestResult> results) {
        List<ContainerResult> containers = results.stream().flatMap(r -> r.containers().stream()).toList();
        // without a container (a class whose setup failed) no figure has a column: not even the GPU's
        List<Metric> ownColumns = containers.isEmpty() ? List.of() : ShownFigures.of(OWN_COLUMNS, containers);
        List<String> headers = headers(ownColumns);
        List<List<String>> rows = new ArrayList<>();
        rows.add(headers);
        for (TestResult result : results) {
            if (!result.isMeasured()) {
                rows.add(unmeasuredRow(result, headers.size()));
            }
            for (ContainerResult container : result.containers()) {
                rows.add(row(result, container, ownColumns));
            }
        }
        StringBuilder out = new StringBuilder(TabLayout.render(rows));
        overlapNotes(results, out);
        if (ownColumns.contains(Metric.MEMORY_GROWTH) && results.stream().flatMap(r -> r.containers().stream())
                .anyMatch(c -> Measurability.trendTooShort(Metric.MEMORY_GROWTH, c.usage()).isPresent())) {
            out.append(TOO_SHORT_NOTE).append('\n');
        }
        return out.toString();
    }

    /**
     * Under the table, a line for every container marked {@value #OVERLAP_MARK}: which other tests measured it at
     * the same time, so that its figures include their usage.
     */
    static void overlapNotes(List<TestResult> results, StringBuilder out) {
        for (TestResult result : results) {
            for (ContainerResult container : result.containers()) {
                if (container.overlap().isPresent()) {
                    out.append(OVERLAP_MARK).append(' ').append(oneLine(ReportNames.label(result))).append(": ")
                            .append(oneLine(container.overlap().sentence(container.name()))).append('\n');
                }
            }
        }
    }

    private static List<String> row(TestResult result, ContainerResult container, List<Metric> ownColumns) {
        ResourceUsage u = container.usage();
        DataSize usage = u.after().memoryUsage();
        String limit = u.memoryLimit().map(DataSize::toDockerBinaryString).orElse("--");
        String memPercent = u.memoryLimit().filter(l -> l.toBytes() > 0)
                .map(l -> Percentage.of(100.0 * usage.toBytes() / l.toBytes()).toDockerString()).orElse("--");
        List<String> row = new ArrayList<>(List.of(
                oneLine(ReportNames.label(result)),
                oneLine(container.name()) + (container.overlap().isPresent() ? " " + OVERLAP_MARK : ""),
                docker(Metric.AVERAGE_CPU, u),
                usage.toDockerBinaryString() + " / " + limit,
                memPercent,
                // docker stats prints I/O in decimal kB/MB; Vitals reads "MB" as binary, as docker run --memory
                // does, so a figure copied from this table into a budget must be printed in IEC units too
                docker(Metric.NETWORK_RECEIVED, u) + " / " + docker(Metric.NETWORK_SENT, u),
                docker(Metric.BLOCK_READ, u) + " / " + docker(Metric.BLOCK_WRITE, u),
                docker(Metric.PEAK_PIDS, u),
                docker(Metric.PEAK_MEMORY, u)));
        ownColumns.forEach(metric -> row.add(docker(metric, u)));
        row.add(outcome(result));
        row.add(budgets(container.budgets(), container.fault()));
        return row;
    }

    /**
     * A figure in docker's formats: sizes as {@link DataSize#toDockerBinaryString()} ({@code 5.312MiB}), percentages
     * with two decimals ({@code 7.09%}); other units as every report prints them; {@code --} when not known or not
     * measured on this host ({@link ReportedFigure}: block write on cgroup v1 is {@code --}, never {@code 0B}), or
     * the figure's own words for why the host could not measure it ("no GPU visible"); {@value #TOO_SHORT_MARK} for
     * a memory growth whose window is too short for a trend ({@link Measurability#trendTooShort}).
     */
    public static String docker(Metric metric, ResourceUsage usage) {
        if (Measurability.trendTooShort(metric, usage).isPresent()) {
            return TOO_SHORT_MARK;
        }
        ReportedFigure figure = ReportedFigure.of(metric, usage);
        return figure.value().isPresent() ? metric.unit().formatDocker(figure.value().getAsDouble())
                : figure.missing("--", "--");
    }

    /**
     * A test no container was measured for (failed in {@code @BeforeEach}, aborted, disabled, or its class's
     * setup failed): dashes, its outcome, and in the last column the first line of why.
     */
    private static List<String> unmeasuredRow(TestResult result, int columns) {
        List<String> row = new ArrayList<>();
        row.add(oneLine(ReportNames.label(result)));
        while (row.size() < columns - 2) {
            row.add("--");
        }
        row.add(outcome(result));
        String reason = result.failureMessage().map(m -> m.strip().lines().findFirst().orElse("")).orElse("");
        if (reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON) + "...";
        }
        row.add("NOT MEASURED: " + result.outcome().name() + (reason.isEmpty() ? "" : ": " + oneLine(reason)));
        return row;
    }

    /** The OUTCOME cell: "passed", "FAILED", "aborted", "skipped"; a failure in capitals, as BREACH is. */
    static String outcome(TestResult result) {
        return result.outcome() == TestResult.Outcome.FAILED ? "FAILED"
                : result.outcome().name().toLowerCase(Locale.ROOT);
    }

    /**
     * "--" without budgets, else their {@link BudgetTally}, counted as every report counts them: "0/2 breached",
     * "1/3 breached: peakMemory", "0 judged, 1 not measurable: blockWrite". A budget nobody could measure is never
     * counted as kept.
     */
    static String budgets(List<BudgetResult> budgets) {
        return budgets.isEmpty() ? "--" : BudgetTally.of(budgets).text(true);
    }

    /**
     * The budgets cell of a container with a fault: the fault first, since budgets checked on a window the container
     * or its engine cut short say nothing of the rest of the test, and an OOM kill is what the reader needs before
     * any count: "ENGINE GONE at 2.3 s (partial window); 0/2 breached", "OOM KILL at 1.2 s; 1/2 breached:
     * peakMemory", "EXITED EARLY at 3.0 s (partial window)".
     */
    static String budgets(List<BudgetResult> budgets, Optional<ContainerFault> fault) {
        String checks = budgets(budgets);
        if (fault.isEmpty()) {
            return checks;
        }
        ContainerFault f = fault.get();
        String what = (f.kind() == ContainerFault.Kind.EXITED ? "EXITED EARLY" : f.kind().name().replace('_', ' '))
                + f.at().map(at -> " at " + DurationParser.format(at)).orElse("")
                + (f.partialWindow() ? " (partial window)" : "");
        return budgets.isEmpty() ? what : what + "; " + checks;
    }

    // A display name with a line break would tear the table apart.
    static String oneLine(String text) {
        return text.replaceAll("[\\r\\n\\t]+", " ");
    }
}
