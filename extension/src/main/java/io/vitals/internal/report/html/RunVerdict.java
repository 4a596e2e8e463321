package io.vitals.internal.report.html;

import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The run's verdict in one line, the first thing on the page: how many tests passed and failed, how many budgets
 * were breached of those judged, and how many tests regressed. A test that another test runs on purpose and
 * expects to fail (a fixture, {@code vitals.report.expectedToFailBy}) is counted apart, so a green suite whose
 * report shows its fixtures' red results still reads as green.
 *
 * <p>"N/M breached" means N breached of the M budgets judged; a budget this host could not measure is neither
 * judged nor passed and is counted apart ("2 not measurable"), as in the table's budgets column.
 */
record RunVerdict(
        int tests, int passed, int failed, int aborted, int skipped, int expectedFailures,
        int budgetsJudged, int budgetsBreached, int budgetsNotMeasurable, int breachedInFixtures, int regressed,
        boolean compared) {

    static RunVerdict of(RunReport run) {
        int passed = 0;
        int failed = 0;
        int aborted = 0;
        int skipped = 0;
        int expected = 0;
        int judged = 0;
        int breached = 0;
        int unmeasured = 0;
        int inFixtures = 0;
        int regressed = 0;
        boolean compared = run.baseline().isPresent();
        for (RunReport.Entry entry : run.tests()) {
            TestResult r = entry.result();
            boolean fixture = entry.expectedToFailBy().isPresent();
            switch (r.outcome()) {
                case PASSED -> passed++;
                case FAILED -> {
                    if (fixture) {
                        expected++;
                    } else {
                        failed++;
                    }
                }
                case ABORTED -> aborted++;
                case SKIPPED -> skipped++;
            }
            for (ContainerResult c : r.containers()) {
                for (BudgetResult b : c.budgets()) {
                    if (b.status() == BudgetStatus.NOT_MEASURABLE) {
                        unmeasured++;
                        continue;
                    }
                    judged++;
                    if (b.status() == BudgetStatus.BREACHED) {
                        breached++;
                        inFixtures += fixture ? 1 : 0;
                    }
                }
            }
            regressed += entry.verdict().hasRegressions() ? 1 : 0;
            compared |= !entry.verdict().lines().isEmpty();
        }
        return new RunVerdict(run.tests().size(), passed, failed, aborted, skipped, expected, judged, breached,
                unmeasured, inFixtures, regressed, compared);
    }

    /** Red when a test failed unexpectedly, amber when a test regressed (in warn mode) or was aborted, else green. */
    String css() {
        return failed > 0 ? "bad" : regressed > 0 || aborted > 0 ? "warn" : "good";
    }

    /** "Run failed:", "Run passed:": the words the line starts with. */
    String word() {
        return failed > 0 ? "Run failed:" : "Run passed:";
    }

    /**
     * The line after the word: "2 of 49 tests failed, 46 passed, 1 skipped · 3/120 budgets breached (4 not
     * measurable) · 1 test regressed".
     */
    String text() {
        List<String> counts = new ArrayList<>();
        if (failed > 0) {
            counts.add(failed + " of " + tests + " tests failed");
            counts.add(passed + " passed");
        } else {
            counts.add(passed + " of " + tests + " tests passed");
        }
        if (expectedFailures > 0) {
            counts.add(expectedFailures + " failed as their suite expected");
        }
        if (aborted > 0) {
            counts.add(aborted + " aborted");
        }
        if (skipped > 0) {
            counts.add(skipped + " skipped");
        }
        StringBuilder line = new StringBuilder(String.join(", ", counts));
        line.append(" · ");
        if (budgetsJudged == 0 && budgetsNotMeasurable == 0) {
            line.append("no budgets");
        } else {
            line.append(budgetsBreached).append('/').append(budgetsJudged).append(" budgets breached");
            List<String> apart = new ArrayList<>();
            if (budgetsNotMeasurable > 0) {
                apart.add(budgetsNotMeasurable + " not measurable");
            }
            if (breachedInFixtures > 0) {
                apart.add(breachedInFixtures + " of the breaches expected by their suite");
            }
            if (!apart.isEmpty()) {
                line.append(" (").append(String.join("; ", apart)).append(')');
            }
        }
        // "no regressions" only where something was compared: a run without a baseline or history has no say
        if (regressed > 0 || compared) {
            line.append(" · ").append(regressed == 0 ? "no regressions"
                    : regressed + (regressed == 1 ? " test" : " tests") + " regressed");
        }
        return line.toString();
    }

    void render(StringBuilder out) {
        out.append("<p id=\"verdict\" class=\"verdict ").append(css()).append("\"><b>").append(word())
                .append("</b> ").append(Html.escape(text())).append("</p>");
    }
}
