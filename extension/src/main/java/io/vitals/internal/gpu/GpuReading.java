package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.ExtraKey;

import java.util.List;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * One GPU sample of one container: what its processes held of the GPUs' memory and of their SMs, and the
 * device-wide figures of the GPUs they used. Only made where the container had at least one GPU process; otherwise
 * the reading's GPU group is unavailable ("no GPU visible …"), never zeros.
 *
 * @param queriedAtNanos {@link System#nanoTime()} of the query it comes from: fast reads carry a reading's GPU
 *     group over, and one query may serve several containers, so this tells a new sample from a repeated one
 * @param usedMemoryBytes the GPU memory of the container's processes, summed over processes and devices
 * @param processes how many of the container's processes the driver listed
 * @param devices the UUIDs of the GPUs those processes used
 * @param shared whether processes outside the container used those devices too
 * @param smPercent the container's own processes' share of the SMs of those devices since the previous query
 *     (summed over its processes, averaged over the devices); empty where the driver has no per-process samples
 *     (nvidia-smi, MIG)
 * @param device the device-wide figures of those devices
 */
@API(status = INTERNAL, since = "0.1")
public record GpuReading(long queriedAtNanos, long usedMemoryBytes, int processes, List<String> devices,
        boolean shared, OptionalDouble smPercent, DeviceFigures device) {

    /** The group's key in a reading's extras. */
    public static final ExtraKey<GpuReading> KEY = ExtraKey.of("gpu", GpuReading.class);

    public GpuReading {
        devices = List.copyOf(devices);
    }

    /** {@link DeviceFigures#utilizationPercent()} */
    public OptionalDouble utilizationPercent() {
        return device.utilizationPercent();
    }

    /** {@link DeviceFigures#powerWatts()} */
    public OptionalDouble powerWatts() {
        return device.powerWatts();
    }

    /** {@link DeviceFigures#energyJoules()} */
    public OptionalDouble energyJoules() {
        return device.energyJoules();
    }
}
