package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Unit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * A timeline a further source keeps beside the probe's, such as the GPU memory of the container's processes. It
 * has its own sample times, because its source samples at its own pace (a GPU query once a second at most, not
 * every 50 ms), and one or more series of figures in one unit. The HTML page draws it as a chart of its own and the
 * per-test JSON keeps it, so that a page made from merged report directories draws it too.
 *
 * @param key the name the JSON keeps it under, e.g. {@code gpuMemory}
 * @param title the chart's title
 * @param unit the figures' unit, which formats the chart's axis
 * @param budgetAttributes the {@code @ResourceBudget} attributes whose limits the chart draws
 * @param offsets time since the test started, one per sample, ascending
 * @param series the figures, one value per offset each
 */
@API(status = INTERNAL, since = "0.1")
public record Lane(String key, String title, Unit unit, List<String> budgetAttributes, List<Duration> offsets,
        List<Series> series) {

    /**
     * One series of a lane.
     *
     * @param key its name in the JSON, e.g. {@code sm}
     * @param label its name in the chart's legend
     * @param values the figure at each of the lane's offsets, in the unit's base; {@code NaN} where that sample had
     *     none
     */
    public record Series(String key, String label, List<Double> values) {

        public Series {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(label, "label");
            values = List.copyOf(values);
        }

        /** Whether no sample has a figure. */
        public boolean isBlank() {
            return values.stream().allMatch(v -> Double.isNaN(v));
        }
    }

    public Lane {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(unit, "unit");
        budgetAttributes = List.copyOf(budgetAttributes);
        offsets = List.copyOf(offsets);
        series = List.copyOf(series);
        for (Series s : series) {
            if (s.values().size() != offsets.size()) {
                throw new IllegalArgumentException("lane " + key + " has " + offsets.size() + " offsets and "
                        + s.values().size() + " values in " + s.key());
            }
        }
    }

    /** The series named {@code key}, if the lane has it. */
    public java.util.Optional<Series> series(String key) {
        return series.stream().filter(s -> s.key().equals(key)).findFirst();
    }
}
