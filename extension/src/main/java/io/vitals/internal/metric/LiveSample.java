package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * What a single sampler reading shows of the figures one sample can already break ({@code failFast} budgets): the
 * probes' readings implement it, so that the metric model needs nothing from the probes (they depend on it, for
 * the sources the descriptors declare).
 */
@API(status = INTERNAL, since = "0.1")
public interface LiveSample {

    /** MEM USAGE as {@code docker stats} shows it: charged memory minus the inactive file cache. */
    long workingSetBytes();

    /** Tasks in the container now. */
    long currentPids();
}
