package io.vitals.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;

import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

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
@API(status = INTERNAL, since = "0.1")
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

    /**
     * The breach in a few words, the same in the run index, the HTML page and summary.md: the figure, then the
     * relation its direction breaks, then the budget: {@code peakMemory 1.7 GiB > 1.5GiB} for a ceiling,
     * {@code memoryHeadroom 12.0% < 20%} for a floor. A figure that could not be measured reads
     * {@code blockWrite not measurable here (budget 200MiB)}.
     */
    public String breach() {
        if (Double.isNaN(actualValue) || Measurability.isNotMeasurable(this)) {
            return attribute + " " + actual + " (budget " + limit + ")";
        }
        // a check read back from an older report may name a figure this version no longer has: a ceiling then
        Direction direction = metric().map(Metric::direction).orElse(Direction.CEILING);
        return attribute + " " + actual + " " + direction.breachSymbol() + " " + limit;
    }

    /**
     * The figure this budget is on. A phase's budget is keyed {@code memoryHeadroom[train]}: the phase in brackets
     * names where the figure was taken, not another figure.
     */
    public Optional<Metric> metric() {
        int phase = attribute.indexOf('[');
        return Metric.byAttribute(phase < 0 || !attribute.endsWith("]") ? attribute : attribute.substring(0, phase));
    }
}
