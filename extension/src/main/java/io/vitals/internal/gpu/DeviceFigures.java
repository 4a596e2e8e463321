package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * The device-wide figures of the GPUs a container's processes used, in one sample; each empty where none of those
 * devices reports it (MIG, power on some boards, the energy counter before Volta or from nvidia-smi).
 *
 * @param utilizationPercent the mean {@code utilization.gpu}: share of time a kernel ran
 * @param memoryUtilizationPercent the mean {@code utilization.memory}: share of time device memory was read or
 *     written
 * @param powerWatts the summed power draw
 * @param temperatureCelsius the hottest device's temperature
 * @param smClockMHz the mean SM clock: a clock well below the board's maximum under load means it throttles
 * @param energyJoules the summed energy counters (since the driver loaded), where every device has one
 */
@API(status = INTERNAL, since = "0.1")
public record DeviceFigures(OptionalDouble utilizationPercent, OptionalDouble memoryUtilizationPercent,
        OptionalDouble powerWatts, OptionalDouble temperatureCelsius, OptionalDouble smClockMHz,
        OptionalDouble energyJoules) {

    /** No figure at all. */
    public static DeviceFigures none() {
        return new DeviceFigures(OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());
    }
}
