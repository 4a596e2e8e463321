package io.vitals.internal.gpu;

import io.vitals.internal.probe.ExtraKey;

import java.util.List;
import java.util.OptionalDouble;

/**
 * One GPU sample of one container: what its processes held of the GPUs' memory, and the device-wide figures of the
 * GPUs they used. Only made where the container had at least one GPU process; otherwise the reading's GPU group is
 * unavailable ("no GPU visible …"), never zeros.
 *
 * @param queriedAtNanos {@link System#nanoTime()} of the query it comes from: fast reads carry a reading's GPU
 *     group over, and one query may serve several containers, so this tells a new sample from a repeated one
 * @param usedMemoryBytes the GPU memory of the container's processes, summed over processes and devices
 * @param processes how many of the container's processes the driver listed
 * @param devices the UUIDs of the GPUs those processes used
 * @param utilizationPercent the average {@code utilization.gpu} of those devices; empty where none reports it
 *     (MIG, some drivers)
 * @param powerWatts the summed {@code power.draw} of those devices; empty where none reports it
 * @param shared whether processes outside the container used those devices too
 * @param smPercent the container's own processes' share of the SMs of those devices since the previous query
 *     (summed over its processes, averaged over the devices); empty where the driver has no per-process samples
 *     (nvidia-smi, MIG)
 * @param energyJoules the summed energy counters of those devices (since the driver loaded); empty unless every
 *     one of them has one (NVML, Volta and later)
 */
public record GpuReading(long queriedAtNanos, long usedMemoryBytes, int processes, List<String> devices,
        OptionalDouble utilizationPercent, OptionalDouble powerWatts, boolean shared, OptionalDouble smPercent,
        OptionalDouble energyJoules) {

    /** The group's key in a reading's extras. */
    public static final ExtraKey<GpuReading> KEY = ExtraKey.of("gpu", GpuReading.class);

    public GpuReading {
        devices = List.copyOf(devices);
    }
}
