package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** What a figure is about; figures of one resource share how they are measured and what can go wrong. */
@API(status = INTERNAL, since = "0.1")
public enum Resource {
    MEMORY, CPU, BLOCK_IO, NETWORK, PIDS, TIME, GPU
}
