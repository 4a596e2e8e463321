package io.vitals.assertions;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.BudgetCheck;
import io.vitals.internal.units.DurationParser;

import java.util.Locale;

import org.assertj.core.error.BasicErrorMessageFactory;

/**
 * "Expecting peak memory: 1.7 GiB to be at most: 1.5 GiB but it exceeded it by …", with the context of a
 * {@code @ResourceBudget} breach.
 *
 * <p>Approach: where the assertion has the budget's own direction (a ceiling, or a floor on headroom), the reason is
 * {@link BudgetEvaluator#describeBreach} less its leading "peak memory 1.7 GiB exceeds the budget of 1.5GiB", so
 * that the assertion and the annotation word a breach identically. A floor on a figure whose budgets are ceilings
 * ({@code hasPeakMemoryAtLeast}) has no breach wording there, so the same parts are assembled here.
 */
final class ShouldBeWithinBudget extends BasicErrorMessageFactory {

    private final String expected;

    private ShouldBeWithinBudget(String label, String actual, String direction, String expected, String reason) {
        super("%nExpecting %s:%n  %s%nto be %s:%n  %s%nbut %s", unquotedString(label), unquotedString(actual),
                unquotedString(direction), unquotedString(expected), unquotedString(reason));
        this.expected = expected;
    }

    static ShouldBeWithinBudget shouldBeWithinBudget(Metric metric, boolean atLeast, BudgetCheck check,
            ResourceUsage usage) {
        return new ShouldBeWithinBudget(metric.label(), check.actual(), atLeast ? "at least" : "at most",
                metric.unit().format(check.limitValue()), reason(metric, atLeast, check, usage));
    }

    /** The budget as formatted in the message, for the IDE's expected/actual view. */
    String expected() {
        return expected;
    }

    private static String reason(Metric metric, boolean atLeast, BudgetCheck check, ResourceUsage usage) {
        if (Double.isNaN(check.actualValue())) {
            return "it could not be checked: " + check.note().orElse("the probe could not measure it");
        }
        String verb = atLeast ? "it fell short of it by " : "it exceeded it by ";
        if (atLeast == metric.isFloor()) {
            String breach = BudgetEvaluator.describeBreach(check, usage);
            String lead = metric.label() + " " + check.actual() + (atLeast ? " is below" : " exceeds")
                    + " the budget of " + check.limit() + " by ";
            return breach.startsWith(lead) ? verb + breach.substring(lead.length()) : "it did not: " + breach;
        }
        StringBuilder reason = new StringBuilder(verb)
                .append(metric.unit().format(Math.abs(check.actualValue() - check.limitValue())));
        // the check's margin is signed for the budget's own direction; asserted the other way, the breach side
        // flips, and breaches always read positive
        check.marginPercent().ifPresent(margin -> reason.append(String.format(Locale.ROOT, " (%+.1f%%)", -margin)));
        check.at().ifPresent(at -> reason.append(", reached at ").append(DurationParser.format(at)));
        if (metric == Metric.PEAK_MEMORY) {
            reason.append("; limit ").append(usage.memoryLimit().map(Object::toString).orElse("none"));
        }
        return reason.append("; ").append(check.method()).toString();
    }
}
