package io.vitals.internal.metric;

/** What a figure is about; figures of one resource share how they are measured and what can go wrong. */
public enum Resource {
    MEMORY, CPU, BLOCK_IO, NETWORK, PIDS, TIME, GPU
}
