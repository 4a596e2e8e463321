package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * How a window turns a sourced figure's readings into the test's figure. The cgroup files hold counters (a fault
 * count since the cgroup was made) and gauges (bytes of anonymous memory now); the kind decides whether the figure
 * is exact whatever the sampling interval, or only as good as the samples.
 */
@API(status = INTERNAL, since = "0.1")
public enum Aggregation {

    /** A counter: the last reading minus the first. Exact, since both ends of a window are read. */
    DELTA(Acquisition.EXACT, "difference between the test's first and last reading"),
    /** A gauge: the highest reading. */
    MAX(Acquisition.SAMPLED, "highest of the readings"),
    /** A gauge: the mean of the readings. */
    MEAN(Acquisition.SAMPLED, "mean of the readings"),
    /** A gauge: the test's last reading. */
    LAST(Acquisition.EXACT, "reading at the test's end"),
    /**
     * A gauge: its value in the reading with the highest working set. The sampler reads these figures again
     * whenever the working set reaches a new high, so they belong to the peak rather than to the last full read.
     */
    AT_PEAK(Acquisition.SAMPLED, "reading at the highest working set");

    private final Acquisition acquisition;
    private final String words;

    Aggregation(Acquisition acquisition, String words) {
        this.acquisition = acquisition;
        this.words = words;
    }

    public Acquisition acquisition() {
        return acquisition;
    }

    /** In words, for a figure's method: "difference between the test's first and last reading". */
    public String words() {
        return words;
    }
}
