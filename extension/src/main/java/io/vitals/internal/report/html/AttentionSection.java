package io.vitals.internal.report.html;

import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The top of the page, "Needs attention": the list of what failed, breached, regressed or overlapped, then the one
 * chart that explains each failed or breached test, so that what failed and why is seen without scrolling or
 * opening anything.
 */
final class AttentionSection {

    /**
     * Explaining charts shown under "Needs attention": enough for the failures of a bad run to be seen at once,
     * few enough that the table still starts near the top; each test's section has all of its charts.
     */
    static final int GLANCE_LIMIT = 6;

    private AttentionSection() {
    }

    /** The list, then the explaining charts; nothing for a run with nothing to attend to. */
    static void write(RunReport run, StringBuilder out) {
        items(run, out);
        glance(run, out);
    }

    private static void items(RunReport run, StringBuilder out) {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < run.tests().size(); i++) {
            RunReport.Entry entry = run.tests().get(i);
            String link = "<a href=\"#t" + i + "\">" + Html.escape(ReportNames.testKey(entry.result())) + "</a>";
            if (!entry.result().isMeasured() && entry.result().outcome() != TestResult.Outcome.PASSED) {
                // no figures, so no breach explains the failure (or skip): name it, as summary.md does
                String reason = entry.result().failureMessage().map(m -> ": " + Html.escape(m.strip().lines()
                        .findFirst().orElse(""))).orElse("");
                TestResult.Outcome outcome = entry.result().outcome();
                items.add(outcome == TestResult.Outcome.SKIPPED
                        ? "<li class=\"warn\">Skipped: " + link + reason + "</li>"
                        : "<li class=\"bad\">" + (outcome == TestResult.Outcome.FAILED ? "Failed" : "Aborted")
                                + " before any container was measured: " + link + reason + "</li>");
            }
            for (ContainerResult c : entry.result().containers()) {
                if (c.overlap().isPresent()) {
                    items.add("<li class=\"warn\">Overlapped: " + link + " " + Html.escape(c.name()) + ": "
                            + Html.escape(c.overlap().sentence(c.name())) + "</li>");
                }
                for (BudgetResult b : c.budgets()) {
                    if (!b.passed()) {
                        items.add("<li class=\"bad\">Budget breached: " + link + " " + Html.escape(c.name()) + ": "
                                + Html.escape(b.breach()) + margin(b) + expected(entry) + "</li>");
                    }
                }
                // an OOM kill in a test that passed was expected and allowed (allowOomKill): nothing to attend to;
                // the test's section still names it
                boolean allowedKill = entry.result().outcome() == TestResult.Outcome.PASSED
                        && c.fault().filter(f -> f.kind() == ContainerFault.Kind.OOM_KILL).isPresent();
                c.fault().filter(f -> !allowedKill).ifPresent(f -> items.add("<li class=\"bad\">" + link + ": "
                        + Html.escape(firstLine(f.description())) + expected(entry) + "</li>"));
            }
            entry.verdict().regressions().forEach(f -> items.add("<li class=\"bad\">Regression: " + link + " "
                    + Html.escape(f.container() + ": " + f.message()) + "</li>"));
            entry.verdict().improvements().forEach(f -> items.add("<li class=\"good\">Improvement: " + link + " "
                    + Html.escape(f.container() + ": " + f.message()) + "</li>"));
            if (!entry.verdict().inBaseline() && run.baseline().map(RunReport.BaselineSummary::found).orElse(false)) {
                items.add("<li>Not in baseline: " + link + "</li>");
            }
        }
        run.baseline().ifPresent(b -> b.notRun().forEach(k -> items.add("<li>In baseline but not run: "
                + Html.escape(k) + "</li>")));
        if (!items.isEmpty()) {
            // no box of its own to scroll: every item is read in full, however many there are
            out.append("<section class=\"attention\"><h2>Needs attention</h2><ul>");
            items.forEach(out::append);
            out.append("</ul></section>");
        }
    }

    /**
     * Whether a test is one of those the page opens on: failed or aborted, a budget breached, or a fault that was
     * not an OOM kill its budget allowed.
     */
    static boolean needsAttention(RunReport.Entry entry) {
        TestResult r = entry.result();
        if (r.outcome() == TestResult.Outcome.FAILED || r.outcome() == TestResult.Outcome.ABORTED) {
            return true;
        }
        return r.containers().stream().anyMatch(c -> c.budgets().stream().anyMatch(b -> !b.passed()))
                || entry.verdict().hasRegressions();
    }

    /**
     * Under "Needs attention", the charts that explain each failed or breached test, one per broken figure (see
     * {@link TestCharts#explaining}), so that what failed and why is seen without opening anything; at most
     * {@link #GLANCE_LIMIT} charts in all. The first chart of test {@code i} is {@code #g<i>}, the others
     * {@code #g<i>-<n>}.
     */
    private static void glance(RunReport run, StringBuilder out) {
        List<String> cards = new ArrayList<>();
        int explained = 0;
        int shownTests = 0;
        for (int i = 0; i < run.tests().size(); i++) {
            RunReport.Entry entry = run.tests().get(i);
            if (!needsAttention(entry) || entry.result().containers().isEmpty()) {
                continue;
            }
            explained++;
            if (cards.size() >= GLANCE_LIMIT) {
                continue;
            }
            ContainerResult c = culprit(entry.result());
            List<TestCharts.Explaining> charts = TestCharts.explaining(c);
            if (charts.isEmpty()) {
                continue;
            }
            shownTests++;
            for (int n = 0; n < charts.size() && cards.size() < GLANCE_LIMIT; n++) {
                StringBuilder card = new StringBuilder(6_000);
                card.append("<figure class=\"glance\" id=\"g").append(i).append(n == 0 ? "" : "-" + n)
                        .append("\"><figcaption>").append(HtmlReport.outcome(entry.result(), entry))
                        .append(" <a href=\"#t").append(i).append("\">")
                        .append(Html.escape(ReportNames.simpleClassName(entry.result().className()) + " · "
                                + ReportNames.label(entry.result()))).append("</a> <span class=\"muted\">")
                        .append(Html.escape(c.name())).append(": ").append(Html.escape(charts.get(n).why()))
                        .append("</span>")
                        .append("</figcaption>");
                charts.get(n).chart().render(card);
                cards.add(card.append("</figure>").toString());
            }
        }
        if (cards.isEmpty()) {
            return;
        }
        out.append("<div class=\"glances\">");
        cards.forEach(out::append);
        out.append("</div>");
        if (explained > shownTests) {
            out.append("<p class=\"muted\">").append(explained - shownTests)
                    .append(" more failed or breached tests: each one's section below has its charts.</p>");
        }
    }

    /** By how much a breached budget broke, in % of the budget: " (+86.9 %)"; nothing when there is no margin. */
    static String margin(BudgetResult b) {
        return b.marginPercent().isPresent() ? " <b class=\"margin\">(" + String.format(Locale.ROOT, "%+.1f %%",
                b.marginPercent().getAsDouble()) + ")</b>" : "";
    }

    // A fixture whose failure its suite asserts: its items say so, so that they are not read as the run's failures.
    private static String expected(RunReport.Entry entry) {
        return entry.expectedToFailBy().map(by -> " <span class=\"badge expected\" title=\"run and asserted by "
                + Html.escape(by) + "\">expected to fail, by its suite</span>").orElse("");
    }

    private static String firstLine(String text) {
        return text.strip().lines().findFirst().orElse("");
    }

    // The container that explains a test's failure: a faulted one, else one with a breached budget, else the first.
    private static ContainerResult culprit(TestResult r) {
        return r.containers().stream().filter(c -> c.fault().isPresent()).findFirst()
                .or(() -> r.containers().stream().filter(c -> c.budgets().stream().anyMatch(b -> !b.passed()))
                        .findFirst())
                .orElse(r.containers().get(0));
    }

}
