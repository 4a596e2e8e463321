package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * The measurements of one run for one {@link HistoryKey}: one value, or one per repetition.
 *
 * @param id the run's id ({@code vitals.runId}); shards of one CI run share it, which is how a merge knows them
 * @param at when the run started; orders the runs, oldest first
 * @param values the measurements, in the metric's base unit
 */
@API(status = INTERNAL, since = "0.1")
public record HistoryRun(String id, Instant at, List<Double> values) {

    public HistoryRun {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a run in the history needs at least one value: " + id);
        }
    }
}
