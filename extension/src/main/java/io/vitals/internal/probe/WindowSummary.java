package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;

import java.time.Duration;

import org.apiguardian.api.API;

/**
 * The groups one {@link SourceKind} added to the readings of one measurement window, summed up into the figures
 * of the usage for the window or for a phase of it. Not thread-safe: the window that owns it synchronises.
 */
@API(status = INTERNAL, since = "0.1")
public interface WindowSummary {

    /** Adds the groups of {@code reading}, taken {@code offset} after the window's start. */
    void add(Duration offset, RawReading reading);

    /** {@code usage}, the base figures of the whole window, with this kind's figures over the whole window. */
    ResourceUsage summarise(ResourceUsage usage);

    /**
     * {@code usage}, the base figures of a phase, with this kind's figures over the readings from {@code from} to
     * {@code to} (offsets from the window's start).
     */
    ResourceUsage summarise(ResourceUsage usage, Duration from, Duration to);
}
