package io.vitals.internal.probe;

import io.vitals.internal.metric.Unit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A timeline a further source keeps beside the probe's, such as the GPU memory of the container's processes. It
 * has its own sample times, because its source samples at its own pace (nvidia-smi once a second at most, not every
 * 50 ms), and one figure per sample. The HTML page draws it as a chart of its own and the per-test JSON keeps it,
 * so that a page made from merged report directories draws it too.
 *
 * @param key the name the JSON keeps it under, e.g. {@code gpuMemory}
 * @param title the chart's title
 * @param unit the figure's unit, which formats the chart's axis
 * @param budgetAttribute the {@code @ResourceBudget} attribute whose limit the chart draws, where there is one
 * @param offsets time since the test started, one per sample, ascending
 * @param values the figure at each offset, in the unit's base; {@code NaN} where that sample had none
 */
public record Lane(String key, String title, Unit unit, Optional<String> budgetAttribute, List<Duration> offsets,
        List<Double> values) {

    public Lane {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(budgetAttribute, "budgetAttribute");
        offsets = List.copyOf(offsets);
        values = List.copyOf(values);
        if (offsets.size() != values.size()) {
            throw new IllegalArgumentException("lane " + key + " has " + offsets.size() + " offsets and "
                    + values.size() + " values");
        }
    }

    /** Whether the lane has no sample, so that there is nothing to draw. */
    public boolean isEmpty() {
        return offsets.isEmpty();
    }
}
