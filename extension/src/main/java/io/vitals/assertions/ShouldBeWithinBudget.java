package io.vitals.assertions;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.Contention;
import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.units.DurationParser;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * "Expecting peak memory: 1.7 GiB to be at most: 1.5 GiB but it exceeded it by 204.8 MiB (+13.3%), reached at
 * 12.4 s; limit 2.0 GiB; working set (MEM USAGE) sampled every 50 ms …", with the context of a
 * {@code @ResourceBudget} breach.
 *
 * <p>The reason is assembled from the parts of the check, in the order a {@code @ResourceBudget} breach words
 * them: by how much, the margin, when the figure was reached, the memory limit (memory figures), how the figure
 * was measured, then any note and, for figures that contention inflates, whether the container was starved of
 * CPU. An assertion against the budget's own direction ({@code hasPeakMemoryAtLeast} on a figure whose budgets
 * are ceilings) flips the margin's sign, so that a breach always reads positive, and leaves out the note and the
 * starvation clause, which speak of the budget's direction.
 *
 * @param label the metric's label, e.g. "peak memory"
 * @param actual the figure as printed, e.g. "1.7 GiB", or "unknown"
 * @param direction "at most" or "at least"
 * @param expected the budget as printed, e.g. "1.5 GiB"
 * @param reason what follows "but", e.g. "it exceeded it by 204.8 MiB (+13.3%), …"
 */
record ShouldBeWithinBudget(String label, String actual, String direction, String expected, String reason) {

    /** The message after the description, AssertJ-style: each value on its own indented line. */
    static final String FORMAT = "%nExpecting %s:%n  %s%nto be %s:%n  %s%nbut %s";

    static ShouldBeWithinBudget shouldBeWithinBudget(boolean atLeast, BudgetResult result, ResourceUsage usage) {
        Metric metric = result.metric();
        return new ShouldBeWithinBudget(metric.label(), result.actualText(), atLeast ? "at least" : "at most",
                metric.unit().format(result.limit().value()), reason(metric, atLeast, result, usage));
    }

    /** The arguments of {@link #FORMAT}, in order. */
    Object[] arguments() {
        return new Object[] { label, actual, direction, expected, reason };
    }

    private static String reason(Metric metric, boolean atLeast, BudgetResult check, ResourceUsage usage) {
        if (check.actual().isEmpty()) {
            return "it could not be checked: " + check.note().orElse("the probe could not measure it");
        }
        boolean budgetDirection = atLeast == (check.direction() == Direction.FLOOR);
        StringBuilder reason = new StringBuilder(atLeast ? "it fell short of it by " : "it exceeded it by ")
                .append(metric.unit().format(Math.abs(check.actual().getAsDouble() - check.limit().value())));
        // the check's margin is signed for the budget's own direction (positive on the breach side); asserted the
        // other way, the breach side is the other one, so the sign flips
        OptionalDouble margin = check.marginPercent();
        margin.ifPresent(m -> reason.append(String.format(Locale.ROOT, " (%+.1f%%)", budgetDirection ? m : -m)));
        check.at().ifPresent(at -> reason.append(", reached at ").append(DurationParser.format(at)));
        // the figure's own context, as a budget breach prints it: the memory limit (and, for the peak, what filled
        // it), a GPU figure's device-wide scope
        metric.context(usage).ifPresent(context -> reason.append("; ").append(context));
        reason.append("; ").append(check.method());
        if (budgetDirection) {
            check.note().ifPresent(note -> reason.append("; ").append(note));
            Contention.explain(metric, usage).ifPresent(starved -> reason.append("; ").append(starved));
        }
        return reason.toString();
    }
}
