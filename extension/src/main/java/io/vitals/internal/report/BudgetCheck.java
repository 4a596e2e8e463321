package io.vitals.internal.report;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One budget compared with its figure.
 *
 * @param attribute the {@code @ResourceBudget} attribute or assertion, e.g. {@code peakMemory}
 * @param limit the budget as declared, e.g. "1.5GiB"
 * @param limitValue the budget in the figure's base unit (bytes, seconds, percent, count, bytes per second)
 * @param actual the figure, formatted, e.g. "1.7 GiB"
 * @param actualValue the figure in the same base unit as {@code limitValue}
 * @param passed whether the figure is within the budget
 * @param marginPercent by how much the figure is under (negative) or over (positive) the budget, in % of it;
 *     empty when the budget is zero
 * @param method how the figure was measured, e.g. "sampled every 50 ms"
 * @param at when in the test the figure was reached, for peaks
 * @param note a remark, e.g. that the margin is within the sampling error
 */
public record BudgetCheck(
        String attribute,
        String limit,
        double limitValue,
        String actual,
        double actualValue,
        boolean passed,
        OptionalDouble marginPercent,
        String method,
        Optional<java.time.Duration> at,
        Optional<String> note) {
}
