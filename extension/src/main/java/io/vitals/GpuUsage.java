package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * What one container used of the GPUs during one test, or why there is nothing to say: "no GPU visible" is a state
 * of its own, never zeros.
 *
 * <p>GPU memory is the container's own: the sum of what the GPU driver attributes to the processes of the
 * container's cgroup. Utilisation and energy are the device's: the driver does not split them by process. Where
 * other processes used the same device during the test, {@link #deviceShared()} says so, and those figures count
 * their work too.
 *
 * @param peakMemory the highest GPU memory the container's processes held at one sample; empty when none was seen
 * @param averageUtilization the average of the device utilisation ({@code utilization.gpu}) over the samples
 *     in which the container had a GPU process
 * @param averageSmUtilization the container's own processes' share of the SMs, averaged over those samples
 *     (NVML's per-process samples); empty where the driver keeps none (nvidia-smi, MIG)
 * @param energy the devices' energy over those samples: the difference of the driver's energy counters where
 *     every device has one, else integrated from their power draw
 * @param energyFromCounter whether {@code energy} is the counters' difference
 * @param devices the UUIDs of the GPUs the container's processes used
 * @param deviceShared whether processes outside the container used those GPUs too
 * @param samples how many GPU samples showed the container using a GPU
 * @param unavailableReason why there are no figures (empty when there are), e.g. "no GPU visible: nvidia-smi not
 *     found"
 * @param timeline the samples in which the container had a GPU process, oldest first, at most
 *     {@value #MAX_TIMELINE} (a longer test's samples are merged in order, keeping the highest memory and
 *     temperature and averaging the rest); empty for a usage read back from a report without them
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record GpuUsage(
        Optional<DataSize> peakMemory,
        Optional<Percentage> averageUtilization,
        Optional<Percentage> averageSmUtilization,
        Optional<Energy> energy,
        boolean energyFromCounter,
        List<String> devices,
        boolean deviceShared,
        long samples,
        Optional<String> unavailableReason,
        List<Sample> timeline) {

    /** The most samples {@link #timeline()} keeps: an hour at one a second. */
    public static final int MAX_TIMELINE = 3_600;

    /**
     * One GPU sample of the container.
     *
     * @param offset time since the test started
     * @param memory the GPU memory the container's processes held
     * @param utilization the device utilisation ({@code utilization.gpu}), device-wide
     * @param memoryUtilization the device memory's utilisation ({@code utilization.memory}), device-wide
     * @param smShare the container's own processes' share of the SMs (NVML only)
     * @param powerWatts the devices' power draw
     * @param temperatureCelsius the hottest device's temperature
     * @param smClockMHz the devices' mean SM clock
     */
    public record Sample(Duration offset, DataSize memory, Optional<Percentage> utilization,
            Optional<Percentage> memoryUtilization, Optional<Percentage> smShare, OptionalDouble powerWatts,
            OptionalDouble temperatureCelsius, OptionalDouble smClockMHz) {

        /**
         * Checks that every component is given (an unread one is empty, not null).
         *
         * @param offset time since the test started
         * @param memory the GPU memory the container's processes held
         * @param utilization the device utilisation ({@code utilization.gpu}), device-wide
         * @param memoryUtilization the device memory's utilisation ({@code utilization.memory}), device-wide
         * @param smShare the container's own processes' share of the SMs (NVML only)
         * @param powerWatts the devices' power draw
         * @param temperatureCelsius the hottest device's temperature
         * @param smClockMHz the devices' mean SM clock
         */
        public Sample {
            Objects.requireNonNull(offset, "offset");
            Objects.requireNonNull(memory, "memory");
            Objects.requireNonNull(utilization, "utilization");
            Objects.requireNonNull(memoryUtilization, "memoryUtilization");
            Objects.requireNonNull(smShare, "smShare");
            Objects.requireNonNull(powerWatts, "powerWatts");
            Objects.requireNonNull(temperatureCelsius, "temperatureCelsius");
            Objects.requireNonNull(smClockMHz, "smClockMHz");
        }
    }

    /** The words reports print in place of a GPU figure when the container used no GPU visible to Vitals. */
    public static final String NO_GPU_VISIBLE = "no GPU visible";

    /**
     * Checks that every component is given and keeps unmodifiable copies of the lists.
     *
     * @param peakMemory the highest GPU memory the container's processes held at one sample; empty when
     *     none was seen
     * @param averageUtilization the average of the device utilisation ({@code utilization.gpu}) over the
     *     samples in which the container had a GPU process
     * @param averageSmUtilization the container's own processes' share of the SMs, averaged over those
     *     samples (NVML's per-process samples); empty where the driver keeps none (nvidia-smi, MIG)
     * @param energy the devices' energy over those samples: the difference of the driver's energy counters
     *     where every device has one, else integrated from their power draw
     * @param energyFromCounter whether {@code energy} is the counters' difference
     * @param devices the UUIDs of the GPUs the container's processes used
     * @param deviceShared whether processes outside the container used those GPUs too
     * @param samples how many GPU samples showed the container using a GPU
     * @param unavailableReason why there are no figures (empty when there are), e.g. "no GPU visible:
     *     nvidia-smi not found"
     * @param timeline the samples in which the container had a GPU process, oldest first, at most {@value
     *     #MAX_TIMELINE} (a longer test's samples are merged in order, keeping the highest memory and
     *     temperature and averaging the rest); empty for a usage read back from a report without them
     */
    public GpuUsage {
        Objects.requireNonNull(peakMemory, "peakMemory");
        Objects.requireNonNull(averageUtilization, "averageUtilization");
        Objects.requireNonNull(averageSmUtilization, "averageSmUtilization");
        Objects.requireNonNull(energy, "energy");
        devices = List.copyOf(devices);
        Objects.requireNonNull(unavailableReason, "unavailableReason");
        timeline = List.copyOf(timeline);
    }

    /**
     * No GPU figures, and why.
     *
     * @param reason why there are none, as the reports print it
     * @return a usage with every GPU figure empty
     */
    public static GpuUsage unavailable(String reason) {
        return new GpuUsage(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false, List.of(),
                false, 0,
                Optional.of(Objects.requireNonNull(reason, "reason")), List.of());
    }

    /**
     * {@return what a usage carries where no GPU source ran at all ({@code vitals.gpu=off}, or a usage read from old
     * JSON)}
     */
    public static GpuUsage notMeasured() {
        return unavailable("GPU not measured");
    }

    /** {@return whether the container was seen using a GPU} */
    public boolean isAvailable() {
        return unavailableReason.isEmpty();
    }

    /**
     * {@return the short words for a report cell where a figure is missing: {@value #NO_GPU_VISIBLE} when nothing was
     * seen on a GPU, "not measured" when nothing looked, "–" when a GPU was seen but this figure is not known}
     */
    public String absence() {
        if (isAvailable()) {
            return "–";
        }
        return unavailableReason.get().startsWith(NO_GPU_VISIBLE) ? NO_GPU_VISIBLE : "not measured";
    }

    /** {@return how {@link #peakMemory()} was measured, in words, for budget checks and breach messages} */
    public String describeMemoryMethod() {
        return "GPU memory the driver lists for the container's processes (cgroup.procs), sampled every second or slower ("
                + samples + " samples)";
    }

    /** {@return how {@link #averageUtilization()} was measured, in words} */
    public String describeUtilizationMethod() {
        return "device utilisation (utilization.gpu) of " + describeDevices() + ", sampled every second or slower";
    }

    /** {@return how {@link #averageSmUtilization()} was measured, in words} */
    public String describeSmUtilizationMethod() {
        return "the SM share of the container's own processes (NVML process samples), averaged over " + samples
                + " samples";
    }

    /** {@return how {@link #energy()} was measured, in words} */
    public String describeEnergyMethod() {
        return (energyFromCounter ? "the difference of the energy counters of " : "integrated from power samples of ")
                + describeDevices();
    }

    private String describeDevices() {
        return (devices.size() == 1 ? "the GPU " : "the GPUs ") + String.join(", ", devices)
                + (deviceShared ? " (device-wide, shared with other processes)" : " (device-wide)");
    }

    /** {@return why a figure is missing, in full; "the GPU did not report it" when a GPU was seen} */
    public String reason() {
        return unavailableReason.orElse("the GPU did not report it");
    }
}
