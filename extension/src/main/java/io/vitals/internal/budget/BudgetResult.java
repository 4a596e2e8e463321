package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * One budget judged against its figure: what the failure message, the assertions and every report (console,
 * JSON, HTML, Markdown, Prometheus) show of it. The figure and the phase are fields, not a key string, so that a
 * phase's floor ({@code memoryHeadroom[train]}) reads as a floor wherever it is shown.
 *
 * @param metric the figure the budget is on
 * @param phase the phase it was judged on, empty for the whole test
 * @param status how it came out
 * @param limit the budget, as written and in the metric's base unit
 * @param actual the figure in the metric's base unit; empty where it is not known (no memory limit for a
 *     headroom, a phase never marked, no GPU)
 * @param marginPercent by how much the figure is under (negative) or over (positive) the budget, in % of it, with
 *     one sign for a ceiling and a floor; empty when the budget is zero or the figure unknown or not measurable
 * @param method how the figure was measured, e.g. "sampled every 50 ms"
 * @param at when in the test the figure was reached, for peaks
 * @param note a remark, e.g. that the margin is within the sampling error, or why the figure is not measurable
 * @param strict whether {@code vitals.strict=true} judged it: a budget {@link BudgetStatus#NOT_MEASURABLE} then
 *     fails the test
 */
@API(status = INTERNAL, since = "0.1")
public record BudgetResult(
        Metric metric,
        Optional<String> phase,
        BudgetStatus status,
        Limit limit,
        OptionalDouble actual,
        OptionalDouble marginPercent,
        String method,
        Optional<Duration> at,
        Optional<String> note,
        boolean strict) {

    /** What the reports show in place of a figure this host cannot measure. */
    public static final String NOT_MEASURABLE_TEXT = "not measurable here";

    /** What the reports show in place of a figure that is not known. */
    public static final String UNKNOWN_TEXT = "unknown";

    public BudgetResult {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(actual, "actual");
        Objects.requireNonNull(marginPercent, "marginPercent");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(note, "note");
        if (limit.metric() != metric) {
            throw new IllegalArgumentException("a " + limit.metric() + " limit judged as " + metric);
        }
        if (status == BudgetStatus.OK && actual.isEmpty()) {
            throw new IllegalArgumentException(metric.key() + ": a figure nobody knows cannot keep to its budget");
        }
    }

    /** A budget whose figure is not known, e.g. for a phase the test never marked: it fails the test. */
    public static BudgetResult unknown(Limit limit, Optional<String> phase, String method, String reason) {
        return new BudgetResult(limit.metric(), phase, BudgetStatus.BREACHED, limit, OptionalDouble.empty(),
                OptionalDouble.empty(), method, Optional.empty(), Optional.of(reason), false);
    }

    /** Whether the budget lets the test pass: kept to, or not measurable here outside strict mode. */
    public boolean passed() {
        return status == BudgetStatus.OK || status == BudgetStatus.NOT_MEASURABLE && !strict;
    }

    /** Which side of the budget is the breach, the metric's. */
    public Direction direction() {
        return metric.direction();
    }

    /** The name reports show: the attribute, a phase's in brackets, e.g. {@code memoryHeadroom[train]}. */
    public String name() {
        return metric.attribute() + phase.map(p -> "[" + p + "]").orElse("");
    }

    /** The figure as reports print it: "1.7 GiB", {@value #UNKNOWN_TEXT} or {@value #NOT_MEASURABLE_TEXT}. */
    public String actualText() {
        if (status == BudgetStatus.NOT_MEASURABLE) {
            return NOT_MEASURABLE_TEXT;
        }
        return actual.isPresent() ? metric.format(actual.getAsDouble()) : UNKNOWN_TEXT;
    }

    /**
     * The breach in a few words, the same in the run index, the HTML page and summary.md: the figure, then the
     * relation its direction breaks, then the budget: {@code peakMemory 1.7 GiB > 1.5GiB} for a ceiling,
     * {@code memoryHeadroom[train] 12.0% < 20%} for a floor. A figure that is not known or could not be measured
     * reads {@code blockWrite not measurable here (budget 200MiB)}.
     */
    public String breach() {
        if (actual.isEmpty() || status == BudgetStatus.NOT_MEASURABLE) {
            return name() + " " + actualText() + " (budget " + limit.text() + ")";
        }
        return name() + " " + actualText() + " " + direction().breachSymbol() + " " + limit.text();
    }

    /** This result, judged on {@code phase}'s usage. */
    public BudgetResult inPhase(String phase) {
        return new BudgetResult(metric, Optional.of(phase), status, limit, actual, marginPercent, method, at, note,
                strict);
    }

    /**
     * This result, marked {@link BudgetStatus#NOT_MEASURABLE} because of {@code reason}: no margin, and the figure
     * (what the host counted, e.g. 0 B) kept for the record.
     */
    BudgetResult notMeasurable(String reason, boolean strictMode) {
        return new BudgetResult(metric, phase, BudgetStatus.NOT_MEASURABLE, limit, actual, OptionalDouble.empty(),
                method, at, Optional.of(reason), strictMode);
    }
}
