package io.vitals.internal.report.html;

import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerResult;

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
record RunVerdict(Tests tests, Budgets budgets, int regressed, boolean compared) {

    static RunVerdict of(RunReport run) {
        List<RunReport.Entry> entries = run.tests();
        int regressed = (int) entries.stream().filter(entry -> entry.verdict().hasRegressions()).count();
        boolean compared = run.baseline().isPresent()
                || entries.stream().anyMatch(entry -> !entry.verdict().lines().isEmpty());
        return new RunVerdict(Tests.of(entries), Budgets.of(entries), regressed, compared);
    }

    /** Red when a test failed unexpectedly, amber when a test regressed (in warn mode) or was aborted, else green. */
    String css() {
        return tests.failed() > 0 ? "bad" : regressed > 0 || tests.aborted() > 0 ? "warn" : "good";
    }

    /** "Run failed:", "Run passed:": the words the line starts with. */
    String word() {
        return tests.failed() > 0 ? "Run failed:" : "Run passed:";
    }

    /**
     * The line after the word: "2 of 49 tests failed, 46 passed, 1 skipped · 3/120 budgets breached (4 not
     * measurable) · 1 test regressed".
     */
    String text() {
        StringBuilder line = new StringBuilder(tests.text()).append(" · ").append(budgets.text());
        // "no regressions" only where something was compared: a run without a baseline or history has no say
        if (regressed > 0 || compared) {
            line.append(" · ").append(regressed == 0 ? "no regressions"
                    : regressed + (regressed == 1 ? " test" : " tests") + " regressed");
        }
        return line.toString();
    }

    /** How the tests ended; a fixture's failure, which its suite expects, is counted apart from the failures. */
    record Tests(int total, int passed, int failed, int aborted, int skipped, int expectedFailures) {

        static Tests of(List<RunReport.Entry> entries) {
            int passed = 0;
            int failed = 0;
            int aborted = 0;
            int skipped = 0;
            int expected = 0;
            for (RunReport.Entry entry : entries) {
                switch (entry.result().outcome()) {
                    case PASSED -> passed++;
                    case FAILED -> {
                        if (entry.expectedToFailBy().isPresent()) {
                            expected++;
                        } else {
                            failed++;
                        }
                    }
                    case ABORTED -> aborted++;
                    case SKIPPED -> skipped++;
                }
            }
            return new Tests(entries.size(), passed, failed, aborted, skipped, expected);
        }

        /** "2 of 49 tests failed, 46 passed, 1 skipped". */
        String text() {
            List<String> counts = new ArrayList<>();
            if (failed > 0) {
                counts.add(failed + " of " + total + " tests failed");
                counts.add(passed + " passed");
            } else {
                counts.add(passed + " of " + total + " tests passed");
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
            return String.join(", ", counts);
        }
    }

    /**
     * The budgets of every container of every test: those this host could not measure are neither judged nor
     * passed, and the breaches a fixture's suite expects are named apart.
     */
    record Budgets(int judged, int breached, int notMeasurable, int breachedInFixtures) {

        static Budgets of(List<RunReport.Entry> entries) {
            int judged = 0;
            int breached = 0;
            int notMeasurable = 0;
            int inFixtures = 0;
            for (RunReport.Entry entry : entries) {
                boolean fixture = entry.expectedToFailBy().isPresent();
                for (ContainerResult c : entry.result().containers()) {
                    for (BudgetResult b : c.budgets()) {
                        if (b.status() == BudgetStatus.NOT_MEASURABLE) {
                            notMeasurable++;
                            continue;
                        }
                        judged++;
                        if (b.status() == BudgetStatus.BREACHED) {
                            breached++;
                            inFixtures += fixture ? 1 : 0;
                        }
                    }
                }
            }
            return new Budgets(judged, breached, notMeasurable, inFixtures);
        }

        /** "3/120 budgets breached (4 not measurable)", or "no budgets". */
        String text() {
            if (judged == 0 && notMeasurable == 0) {
                return "no budgets";
            }
            List<String> apart = new ArrayList<>();
            if (notMeasurable > 0) {
                apart.add(notMeasurable + " not measurable");
            }
            if (breachedInFixtures > 0) {
                apart.add(breachedInFixtures + " of the breaches expected by their suite");
            }
            return breached + "/" + judged + " budgets breached"
                    + (apart.isEmpty() ? "" : " (" + String.join("; ", apart) + ")");
        }
    }

    void render(StringBuilder out) {
        out.append("<p id=\"verdict\" class=\"verdict ").append(css()).append("\"><b>").append(word())
                .append("</b> ").append(Html.escape(text())).append("</p>");
    }
}
