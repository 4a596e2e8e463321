package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Acquisition;
import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.units.DurationParser;

import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * Compares one figure of a usage with its budget, and words the outcome the same way for a
 * {@code @ResourceBudget} breach and a failed assertion. Everything figure-specific (direction, unit, how it was
 * measured, when a peak was reached) comes from the {@link Metric} entry.
 */
@API(status = INTERNAL, since = "0.1")
public final class BudgetEvaluator {

    /**
     * Relative margin under which a sampled peak is flagged as uncertain: a spike shorter than the sampling
     * interval can be missed, so a peak a few percent under its budget may in truth have crossed it.
     */
    private static final double SAMPLING_UNCERTAINTY_PERCENT = 5.0;

    /** Why the kernel's high-water mark, printed beside a memory figure, is not what a budget judges. */
    public static final String HIGH_WATER_MARK_NOT_JUDGED = Metric.HIGH_WATER_MARK_NOT_JUDGED;

    private BudgetEvaluator() {
    }

    /** {@code limit} judged against {@code usage}: {@link BudgetStatus#OK} or {@link BudgetStatus#BREACHED}. */
    public static BudgetResult evaluate(Limit limit, ResourceUsage usage) {
        Metric metric = limit.metric();
        double actual = metric.read(usage);
        if (Double.isNaN(actual)) {
            return BudgetResult.unknown(limit, Optional.empty(), metric.method(usage), metric.unknownReason());
        }
        boolean passed = metric.direction().isWithin(actual, limit.value());
        // one sign for every direction: negative is room to spare, positive is the breach side, for a floor
        // (headroom) as for a ceiling
        double over = metric.direction().overshoot(actual, limit.value());
        OptionalDouble margin = limit.value() == 0 ? OptionalDouble.empty()
                : OptionalDouble.of(100.0 * over / limit.value());
        return new BudgetResult(metric, Optional.empty(), passed ? BudgetStatus.OK : BudgetStatus.BREACHED, limit,
                OptionalDouble.of(actual), margin, metric.method(usage), metric.reachedAt(usage),
                note(metric, usage, passed, margin), false);
    }

    /**
     * One line for a breach, e.g. {@code peak memory 1.7 GiB exceeds the budget of 1.5GiB by 204.8 MiB
     * (+13.3%), reached at 12.4 s; limit 2.0 GiB; sampled every 50 ms}.
     */
    public static String describeBreach(BudgetResult result, ResourceUsage usage) {
        Metric metric = result.metric();
        StringBuilder line = new StringBuilder(metric.label()).append(' ');
        if (result.actual().isEmpty() || result.status() == BudgetStatus.NOT_MEASURABLE) {
            return line.append("could not be checked against the budget of ").append(result.limit().text())
                    .append(": ").append(result.note().orElse(BudgetResult.UNKNOWN_TEXT)).toString();
        }
        line.append(result.actualText());
        double excess = Math.abs(result.actual().getAsDouble() - result.limit().value());
        line.append(result.direction() == Direction.FLOOR ? " is below the budget of " : " exceeds the budget of ")
                .append(result.limit().text()).append(" by ").append(metric.format(excess));
        result.marginPercent().ifPresent(margin -> line.append(String.format(" (%+.1f%%)", margin)));
        result.at().ifPresent(at -> line.append(", reached at ").append(DurationParser.format(at)));
        metric.context(usage).ifPresent(context -> line.append("; ").append(context));
        line.append("; ").append(result.method());
        result.note().ifPresent(note -> line.append("; ").append(note));
        Contention.explain(metric, usage).ifPresent(starved -> line.append("; ").append(starved));
        return line.toString();
    }

    private static Optional<String> note(Metric metric, ResourceUsage usage, boolean passed, OptionalDouble margin) {
        if (metric.acquisition(usage) != Acquisition.SAMPLED || margin.isEmpty()) {
            return Optional.empty();
        }
        if (passed && Math.abs(margin.getAsDouble()) < SAMPLING_UNCERTAINTY_PERCENT) {
            return Optional.of("within " + SAMPLING_UNCERTAINTY_PERCENT + "% of the budget: a spike shorter than "
                    + "the sampling interval could have crossed it unseen");
        }
        return Optional.empty();
    }
}
