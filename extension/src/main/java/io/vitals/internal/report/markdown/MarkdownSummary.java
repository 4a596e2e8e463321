package io.vitals.internal.report.markdown;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.BudgetTally;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.ShownFigures;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * Writes {@code summary.md} for a CI job summary or a pull-request comment: what needs attention first (tests that
 * failed or were skipped before any container was measured, budget breaches, regressions, OOM kills, tests the
 * baseline lacks, baseline entries that did not run), then one table per test class with a column for every figure
 * ({@link Metric}).
 */
@API(status = INTERNAL, since = "0.1")
public final class MarkdownSummary {

    /** After a container's name in a table: its window overlapped another test's (see {@link #OVERLAP_LEGEND}). */
    static final String OVERLAP_MARK = "†";

    /** Under a table with a marked row: what the mark means. */
    static final String OVERLAP_LEGEND = OVERLAP_MARK + " Overlapped: another test measured this shared container at "
            + "the same time, so the row's figures include its usage; they are left out of the history, the baseline "
            + "and the suggested budgets. \"Needs attention\" names the tests.";

    /** The header when every figure is shown. */
    static final String TABLE_HEADER = header(Metric.tabled());

    private static String header(List<Metric> shown) {
        return "| Test | Container | Outcome | " + shown.stream().map(Metric::heading)
                .map(heading -> heading + " | ").collect(Collectors.joining()) + "Memory limit | Budgets |";
    }

    private static String alignment(List<Metric> shown) {
        return "|---|---|---|" + "--:|".repeat(shown.size()) + "--:|---|";
    }

    public String write(RunReport run) {
        StringBuilder out = new StringBuilder(run.tests().size() * 200 + 1024);
        out.append("# Vitals: resource usage\n\n");
        // a fixture that failed because its suite made it fail is counted apart, as the HTML report's verdict does
        long failed = run.tests().stream().filter(e -> e.expectedToFailBy().isEmpty())
                .filter(e -> e.result().outcome() == TestResult.Outcome.FAILED
                        || e.result().outcome() == TestResult.Outcome.ABORTED).count();
        long expected = run.tests().stream().filter(e -> e.expectedToFailBy().isPresent())
                .filter(e -> e.result().outcome() == TestResult.Outcome.FAILED
                        || e.result().outcome() == TestResult.Outcome.ABORTED).count();
        long skipped = run.tests().stream().filter(e -> e.result().outcome() == TestResult.Outcome.SKIPPED).count();
        out.append(run.tests().size()).append(" tests, ").append(failed).append(" failed or aborted")
                .append(expected == 0 ? "" : ", " + expected + " failed as their suites expect (fixtures)")
                .append(skipped == 0 ? "" : ", " + skipped + " skipped").append('.');
        run.baseline().ifPresent(b -> out.append(baselineLine(b)));
        out.append("\n\n");
        hostShapeLine(run).ifPresent(line -> out.append(line).append("\n\n"));
        attention(run, out);
        Map<String, List<RunReport.Entry>> byClass = new LinkedHashMap<>();
        NotMeasuredNotes notes = new NotMeasuredNotes();
        for (RunReport.Entry entry : run.tests()) {
            byClass.computeIfAbsent(entry.result().className(), k -> new ArrayList<>()).add(entry);
        }
        byClass.forEach((className, entries) -> {
            // a figure none of the class's containers has or budgets gets no column (ShownFigures)
            List<Metric> shown = ShownFigures.of(Metric.tabled(), entries.stream()
                    .flatMap(e -> e.result().containers().stream()).toList());
            out.append("## ").append(cell(className)).append("\n\n");
            out.append(header(shown)).append('\n');
            out.append(alignment(shown)).append('\n');
            for (RunReport.Entry entry : entries) {
                if (!entry.result().isMeasured()) {
                    unmeasuredRow(entry.result(), shown, out);
                }
                for (ContainerResult c : entry.result().containers()) {
                    row(entry.result(), c, shown, notes, out);
                }
            }
            out.append('\n');
            if (entries.stream().anyMatch(e -> e.result().containers().stream().anyMatch(c -> c.overlap()
                    .isPresent()))) {
                out.append(OVERLAP_LEGEND).append("\n\n");
            }
        });
        notes.appendTo(out);
        return out.toString();
    }

    /**
     * "Host shape: cgroup v1, root (`cgroup-v1-root`)": the row of docs/metrics.md's exactness table, which says
     * which figures are exact, sampled or unavailable on it. Empty when no container was measured.
     */
    static Optional<String> hostShapeLine(RunReport run) {
        List<HostShape.Row> rows = run.hostShapes();
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of((rows.size() == 1 ? "Host shape: " : "Host shapes: ")
                + rows.stream().map(row -> row.label() + " (`" + row.id() + "`)").collect(Collectors.joining(", "))
                + "; see \"Exactness by host shape\" in docs/metrics.md for what is exact on it.");
    }

    private static String baselineLine(RunReport.BaselineSummary b) {
        if (!b.found() && b.history()) {
            return " Run history `" + b.file() + "` holds no builds yet: nothing compared"
                    + (b.updating() ? "; this build starts it." : ".");
        }
        if (!b.found()) {
            return " Baseline `" + b.file() + "` not found: nothing compared" + (b.updating() ? "; it is created now."
                    : ".");
        }
        if (b.history()) {
            return " Compared with the run history `" + b.file() + "`: it holds " + b.heldRuns() + " per test "
                    + "(keeps up to " + b.keptRuns() + "; each figure judged against the builds of its testbed"
                    + (b.updating() ? "; updated with this build" : "") + ").";
        }
        return " Compared with baseline `" + b.file() + "`: it holds " + b.heldRuns() + " per test (keeps up to "
                + b.keptRuns() + "; the median is compared" + (b.warnOnly() ? "; warn only" : "")
                + (b.updating() ? "; updated with this run" : "") + ").";
    }

    private static void attention(RunReport run, StringBuilder out) {
        List<String> items = new ArrayList<>();
        for (RunReport.Entry entry : run.tests()) {
            String test = "`" + code(ReportNames.testKey(entry.result())) + "`";
            if (!entry.result().isMeasured() && entry.result().outcome() != TestResult.Outcome.PASSED) {
                // no figures, so no breach explains it: without this line the failure (or skip) would not show
                String reason = entry.result().failureMessage().map(m -> ": " + cell(firstLine(m))).orElse("");
                items.add(entry.result().outcome() == TestResult.Outcome.SKIPPED
                        ? "- :fast_forward: **Skipped** " + test + reason
                        : "- :x: **" + (entry.result().outcome() == TestResult.Outcome.FAILED ? "Failed" : "Aborted")
                                + " before any container was measured** " + test + reason);
            }
            for (ContainerResult c : entry.result().containers()) {
                for (BudgetResult b : c.budgets()) {
                    if (!b.passed()) {
                        items.add("- :x: **Budget breached** " + test + " `" + code(c.name()) + "`: "
                                + cell(b.breach()) + " (" + cell(b.method()) + ")");
                    } else if (b.status() == BudgetStatus.NOT_MEASURABLE) {
                        items.add("- :warning: **Not measurable here** " + test + " `" + code(c.name()) + "`: "
                                + cell(b.note().orElse(b.name())));
                    }
                }
            }
            for (ContainerResult c : entry.result().containers()) {
                if (c.overlap().isPresent()) {
                    items.add("- :twisted_rightwards_arrows: **Overlapped** " + test + " `" + code(c.name()) + "` "
                            + OVERLAP_MARK + ": " + cell(c.overlap().sentence(c.name())));
                }
            }
            entry.verdict().regressions().forEach(f -> items.add("- :chart_with_upwards_trend: **Regression** " + test
                    + " `" + code(f.container()) + "`: " + cell(f.message())));
        }
        List<String> allowedKills = new ArrayList<>();
        for (RunReport.Entry entry : run.tests()) {
            String test = "`" + code(ReportNames.testKey(entry.result())) + "`";
            for (ContainerResult c : entry.result().containers()) {
                // an OOM kill in a test that passed was expected and allowed by its budget (allowOomKill): nothing
                // to attend to, so it is noted after the list rather than in it
                boolean allowed = entry.result().outcome() == TestResult.Outcome.PASSED;
                c.fault().filter(f -> f.kind() == ContainerFault.Kind.OOM_KILL)
                        .ifPresent(f -> (allowed ? allowedKills : items).add("- :boom: **OOM kill**"
                                + (allowed ? " (allowed by the budget) " : " ") + test + ": " + cell(f.description())));
                // the test's figures cover it only up to the fault: listed even where nothing else failed it
                c.fault().filter(f -> f.kind() == ContainerFault.Kind.EXITED)
                        .ifPresent(f -> items.add("- :stop_sign: **Container stopped, partial window** " + test
                                + " `" + code(c.name()) + "`: " + cell(f.description())));
                c.fault().filter(f -> f.kind() == ContainerFault.Kind.ENGINE_GONE)
                        .ifPresent(f -> items.add("- :electric_plug: **Docker engine gone, partial window** " + test
                                + " `" + code(c.name()) + "`: " + cell(f.description())));
            }
            entry.verdict().improvements().forEach(f -> items.add("- :chart_with_downwards_trend: Improvement " + test
                    + " `" + code(f.container()) + "`: " + cell(f.message())));
            // the run history's notes: where a figure stepped (build and commit), a first build on a testbed
            entry.verdict().history().ifPresent(h -> h.notes().forEach(note -> items.add((note.contains(" stepped ")
                    ? "- :mag: **Step** " : "- :new: ") + test + ": " + cell(note))));
            if (run.baseline().map(RunReport.BaselineSummary::found).orElse(false)) {
                String stored = entry.verdict().history().isPresent() ? "the run history" : "baseline";
                if (!entry.verdict().inBaseline()) {
                    items.add("- :new: Not in " + stored + " " + test + ": nothing to compare with");
                }
                entry.verdict().newContainers().forEach(c -> items.add("- :new: Not in " + stored + " " + test
                        + " container `" + code(c) + "`"));
            }
        }
        run.baseline().ifPresent(b -> b.notRun().forEach(key -> items.add("- :grey_question: In baseline but not run: `"
                + code(key) + "`")));
        if (items.isEmpty()) {
            out.append("No budget breaches, regressions or faults.\n\n");
        } else {
            out.append("## Needs attention\n\n");
            items.forEach(item -> out.append(item).append('\n'));
            out.append('\n');
        }
        if (!allowedKills.isEmpty()) {
            out.append("Expected and allowed (`allowOomKill = true`), for the record:\n\n");
            allowedKills.forEach(item -> out.append(item).append('\n'));
            out.append('\n');
        }
    }

    private static void unmeasuredRow(TestResult result, List<Metric> shown, StringBuilder out) {
        out.append("| ").append(cell(ReportNames.label(result))).append(" | – | ").append(outcome(result))
                .append(" | not measured |").append(" – |".repeat(shown.size() + 1)).append('\n');
    }

    private static String outcome(TestResult result) {
        return result.outcome() == TestResult.Outcome.PASSED ? "passed"
                : result.outcome() == TestResult.Outcome.FAILED ? ":x: failed"
                : result.outcome() == TestResult.Outcome.SKIPPED ? "skipped" : "aborted";
    }

    private static String firstLine(String message) {
        String line = message.strip().lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    private static void row(TestResult result, ContainerResult c, List<Metric> shown, NotMeasuredNotes notes,
            StringBuilder out) {
        ResourceUsage u = c.usage();
        // counted as every report counts them (BudgetTally): "N/M breached" of the budgets judged, those this host
        // cannot measure apart and never as kept
        BudgetTally tally = BudgetTally.of(c.budgets());
        String count = tally.text(false);
        String budgets = tally.isEmpty() ? "–" : tally.breached().isEmpty() ? count : ":x: " + count;
        // budgets checked on a window the container or its engine cut short are no "ok"
        boolean partial = c.fault().filter(ContainerFault::partialWindow).isPresent();
        if (partial) {
            budgets = ":warning: partial window" + (tally.isEmpty() ? "" : ", " + count + " in it");
        } else if (c.fault().isPresent() && result.outcome() != TestResult.Outcome.PASSED) {
            // an OOM kill failed the test: that is the cell's news, not a count of budgets that passed
            budgets = ":boom: OOM kill" + (tally.isEmpty() ? "" : ", " + budgets);
        }
        out.append("| ").append(cell(ReportNames.label(result)))
                .append(" | ").append(cell(c.name())).append(c.overlap().isPresent() ? " " + OVERLAP_MARK : "")
                .append(" | ").append(outcome(result));
        for (Metric metric : shown) {
            Optional<String> tooShort = Measurability.trendTooShort(metric, u);
            if (tooShort.isPresent()) {
                // a slope of a few samples is no trend: a dash, and a footnote says why
                out.append(" | –").append(notes.reference(Measurability.TREND_RULE));
                continue;
            }
            ReportedFigure figure = ReportedFigure.of(metric, u);
            // a figure the host did not measure is never a 0: the cell says so, a footnote says why
            out.append(" | ").append(figure.value().isPresent() ? metric.format(figure.value().getAsDouble())
                    : figure.missing("–", ReportedFigure.NOT_MEASURED_HERE)
                            + figure.notMeasured().map(notes::reference).orElse(""));
        }
        out.append(" | ").append(u.memoryLimit().map(Object::toString).orElse("none"))
                .append(" | ").append(budgets).append(" |\n");
    }

    /**
     * Text for a table cell or list item: pipes and Markdown/HTML specials escaped, line breaks flattened, so a
     * display name cannot break the table or inject markup into a PR comment.
     */
    static String cell(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '|': case '\\': case '`': case '*': case '_': case '[': case ']': case '#':
                    out.append('\\').append(c);
                    break;
                case '<': out.append("&lt;"); break;
                case '>': out.append("&gt;"); break;
                case '&': out.append("&amp;"); break;
                case '\n': case '\r': out.append(' '); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }

    // Inside backticks only a backtick needs care; it is replaced, as code spans cannot escape it.
    private static String code(String text) {
        return text.replace('`', '\'').replace('\n', ' ').replace('\r', ' ');
    }
}
