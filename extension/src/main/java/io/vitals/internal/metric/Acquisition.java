package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** How a figure is obtained, and so how far it can be trusted near its budget. */
@API(status = INTERNAL, since = "0.1")
public enum Acquisition {

    /** From a counter or a kernel high-water mark: nothing between two samples is lost. */
    EXACT,
    /** The highest of the samples: a spike shorter than the sampling interval can be missed. */
    SAMPLED,
    /** Fitted over the samples (a trend): robust to spikes by design, so a missed spike does not matter. */
    FITTED
}
