package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.regression.stats.Samples;
import io.vitals.internal.regression.testbed.Testbed;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * The measurements of one run (a build) for one {@link HistoryKey}: one value, or one per repetition.
 *
 * @param id the run's id ({@code vitals.runId}); shards of one CI run share it, which is how a merge knows them
 * @param at when the run started; orders the runs, oldest first
 * @param testbed the id of the {@link Testbed} it ran on; {@link Testbed#UNRECORDED} for runs written before
 *     Vitals recorded testbeds
 * @param values the measurements, in the metric's base unit
 */
@API(status = INTERNAL, since = "0.1")
public record HistoryRun(String id, Instant at, String testbed, List<Double> values) {

    public HistoryRun {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(testbed, "testbed");
        values = List.copyOf(values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a run in the history needs at least one value: " + id);
        }
    }

    /** A run of no recorded testbed. */
    public HistoryRun(String id, Instant at, List<Double> values) {
        this(id, at, Testbed.UNRECORDED, values);
    }

    /**
     * The build's figure: the median of its repetitions. A build, not a repetition, is the unit the history judges
     * and suggests budgets from: repetitions of one build share the machine's state (its neighbours, its page cache,
     * its CPU frequency), so five of them say about the next build what one does, and counting them as five runs
     * would make any difference look significant. The median, not the mean, so that one disturbed repetition does
     * not move the build.
     */
    public double buildValue() {
        return values.size() == 1 ? values.get(0) : Samples.median(values);
    }
}
