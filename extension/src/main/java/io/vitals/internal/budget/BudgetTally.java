package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;

import org.apiguardian.api.API;

/**
 * How a container's budgets came out, counted the one way every report counts them: {@code N/M breached}, where M
 * is the number of budgets judged (kept to or broken) and N those broken; a budget this host cannot measure was not
 * judged, so it is counted apart, never in M and never as "ok": {@code 0/1 breached, 1 not measurable: blockWrite},
 * or {@code 0 judged, 1 not measurable: blockWrite} when nothing was judged at all.
 *
 * @param judged the budgets judged, kept to or broken
 * @param breached the names of those broken ({@link BudgetResult#name()}), in their order
 * @param notMeasurable the names of those this host cannot measure
 * @param strictFailures how many of {@code notMeasurable} fail the test ({@code vitals.strict=true})
 */
@API(status = INTERNAL, since = "0.1")
public record BudgetTally(int judged, List<String> breached, List<String> notMeasurable, int strictFailures) {

    public BudgetTally {
        breached = List.copyOf(breached);
        notMeasurable = List.copyOf(notMeasurable);
        if (breached.size() > judged) {
            throw new IllegalArgumentException(breached.size() + " breached of " + judged + " judged");
        }
    }

    /** The tally of {@code budgets}. */
    public static BudgetTally of(List<BudgetResult> budgets) {
        int judged = 0;
        int strict = 0;
        List<String> breached = new ArrayList<>();
        List<String> notMeasurable = new ArrayList<>();
        for (BudgetResult budget : budgets) {
            if (budget.status() == BudgetStatus.NOT_MEASURABLE) {
                notMeasurable.add(budget.name());
                strict += budget.passed() ? 0 : 1;
                continue;
            }
            judged++;
            if (budget.status() == BudgetStatus.BREACHED) {
                breached.add(budget.name());
            }
        }
        return new BudgetTally(judged, breached, notMeasurable, strict);
    }

    /** Whether there were no budgets at all. */
    public boolean isEmpty() {
        return judged == 0 && notMeasurable.isEmpty();
    }

    /** {@code 1/3 breached} or {@code 0 judged}; with {@code names}, the broken budgets after a colon. */
    public String count(boolean names) {
        if (judged == 0) {
            return "0 judged";
        }
        return breached.size() + "/" + judged + " breached"
                + (names && !breached.isEmpty() ? ": " + String.join(", ", breached) : "");
    }

    /**
     * What the budgets this host cannot measure add, empty when there are none: {@code 1 not measurable}, with
     * {@code names} their names after a colon; those {@code vitals.strict=true} fails say so.
     */
    public String notMeasurablePart(boolean names) {
        if (notMeasurable.isEmpty()) {
            return "";
        }
        return notMeasurable.size() + " not measurable"
                + (strictFailures > 0 ? " (vitals.strict: fails the test)" : "")
                + (names ? ": " + String.join(", ", notMeasurable) : "");
    }

    /**
     * The whole tally in one cell: {@code 0/2 breached}, {@code 1/3 breached: peakMemory},
     * {@code 0/1 breached, 1 not measurable: blockWrite}, {@code 1/2 breached: peakMemory; 1 not measurable: blockWrite},
     * {@code 0 judged, 1 not measurable: blockWrite}; empty
     * without budgets.
     */
    public String text(boolean names) {
        if (isEmpty()) {
            return "";
        }
        String unmeasured = notMeasurablePart(names);
        // after a list of names a comma would read as one more name
        String separator = names && !breached.isEmpty() ? "; " : ", ";
        return count(names) + (unmeasured.isEmpty() ? "" : separator + unmeasured);
    }
}
