package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.internal.metric.BudgetBound;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.units.DurationParser;
import io.vitals.internal.units.Preconditions;

import java.time.Duration;

import org.apiguardian.api.API;

/**
 * One budget on one metric: the value as reports print it and as a number in the metric's base unit.
 *
 * @param metric the metric
 * @param text the value as written, e.g. "1.5GiB"; a size or rate written in a docker-style unit ("200MB", "2g")
 *     is printed in IEC units instead ("200.0 MiB"), so that a report never shows "MB" beside "MiB"
 * @param value the value in the metric's base unit
 */
@API(status = INTERNAL, since = "0.1")
public record Limit(Metric metric, String text, double value) {

    /** A budget given as a size, e.g. by an assertion's {@code DataSize} overload. */
    public static Limit of(Metric metric, DataSize value) {
        Preconditions.notNull(value, "budget");
        return new Limit(metric, value.toString(), value.toBytes());
    }

    /** A budget given as a duration; negative durations are refused. */
    public static Limit of(Metric metric, Duration value) {
        Preconditions.notNull(value, "budget");
        Preconditions.check(!value.isNegative(), "duration budget must not be negative: %s", value);
        return new Limit(metric, DurationParser.format(value), value.toNanos() / 1e9);
    }

    /** A budget given as a percentage. */
    public static Limit of(Metric metric, Percentage value) {
        Preconditions.notNull(value, "budget");
        return new Limit(metric, value.toString(), value.value());
    }

    /**
     * Parses {@code text} for {@code metric}.
     *
     * @throws IllegalArgumentException naming the value and the accepted forms, and a hint where a near miss is
     *     obvious ("did you mean 5s?")
     */
    public static Limit parse(Metric metric, String text) {
        double value;
        try {
            value = metric.unit().parse(text);
        } catch (IllegalArgumentException e) {
            String hint = metric.unit().nearMiss(text).map(h -> "; " + h).orElse("");
            throw new IllegalArgumentException(e.getMessage() + hint, e);
        }
        if (metric.budgetBound().isPresent() && value > metric.budgetBound().get().max()) {
            BudgetBound bound = metric.budgetBound().get();
            throw new IllegalArgumentException("Invalid " + bound.noun() + " '" + text + "': " + bound.reason());
        }
        return new Limit(metric, metric.unit().asWritten(text.trim()), value);
    }
}
