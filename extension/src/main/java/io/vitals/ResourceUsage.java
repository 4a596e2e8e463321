package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.sampling.MemoryGrowth;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * What one container used during one test (or one phase of it): the differences of its counters between the
 * snapshots {@code before} and {@code after}, and the peaks of its gauges in between.
 *
 * <p>When a container is shared by several tests (a static {@code @Container} field), each test's usage covers that
 * test alone: counters are differences, and peaks come from the test's own samples and a high-water mark reset at
 * its start.
 *
 * @param container the name of the container (its field name)
 * @param image the image it runs
 * @param probe where the figures came from
 * @param wallTime how long the measurement lasted
 * @param before the snapshot at the start
 * @param after the snapshot at the end (or the last one read, if the container stopped)
 * @param peak the highest MEM USAGE among the samples, when it was seen and at which interval
 * @param peakMemoryHighWaterMark the kernel's exact high-water mark of charged memory (page cache included) over
 *     the test, where the host keeps a resettable one (cgroup v1; cgroup v2 from Linux 6.12)
 * @param memoryLimit the container's memory limit, empty when it has none
 * @param cpuTime CPU time used
 * @param cpuUserTime CPU time in user mode
 * @param cpuSystemTime CPU time in kernel mode
 * @param averageCpuPercent CPU time over wall time, 100 % being one core
 * @param peakCpuPercent the highest CPU % between two samples
 * @param throttledPeriods CFS periods in which the container was throttled by its CPU limit
 * @param throttledTime time the container was throttled
 * @param blockRead bytes read from block devices
 * @param blockWrite bytes written to block devices
 * @param networkReceived bytes received
 * @param networkSent bytes sent
 * @param peakPids the highest number of tasks seen
 * @param oomKills processes the kernel's OOM killer killed in the container
 * @param memoryLimitHits times memory use hit the limit (reclaim or OOM followed)
 * @param pressureStallCpu time stalled waiting for CPU, where the host exposes it
 * @param pressureStallMemory time stalled in memory reclaim
 * @param pressureStallIo time stalled waiting on I/O
 * @param timeline the sampled figures in between
 * @param phases the named phases marked during the test, each with its own usage
 * @param gpu what the container used of the GPUs, or why nothing was seen ({@link GpuUsage#NO_GPU_VISIBLE})
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ResourceUsage(
        String container,
        String image,
        ProbeKind probe,
        Duration wallTime,
        ResourceSnapshot before,
        ResourceSnapshot after,
        PeakMemory peak,
        Optional<DataSize> peakMemoryHighWaterMark,
        Optional<DataSize> memoryLimit,
        Duration cpuTime,
        Duration cpuUserTime,
        Duration cpuSystemTime,
        Percentage averageCpuPercent,
        Percentage peakCpuPercent,
        long throttledPeriods,
        Duration throttledTime,
        DataSize blockRead,
        DataSize blockWrite,
        DataSize networkReceived,
        DataSize networkSent,
        long peakPids,
        long oomKills,
        long memoryLimitHits,
        Optional<PressureStall> pressureStallCpu,
        Optional<PressureStall> pressureStallMemory,
        Optional<PressureStall> pressureStallIo,
        Timeline timeline,
        List<Phase> phases,
        GpuUsage gpu) {

    public ResourceUsage {
        phases = List.copyOf(phases);
        Objects.requireNonNull(gpu, "gpu");
    }

    /** A usage without GPU figures ({@link GpuUsage#notMeasured()}): the constructor of releases before GPUs. */
    public ResourceUsage(String container, String image, ProbeKind probe, Duration wallTime, ResourceSnapshot before,
            ResourceSnapshot after, PeakMemory peak, Optional<DataSize> peakMemoryHighWaterMark,
            Optional<DataSize> memoryLimit, Duration cpuTime, Duration cpuUserTime, Duration cpuSystemTime,
            Percentage averageCpuPercent, Percentage peakCpuPercent, long throttledPeriods, Duration throttledTime,
            DataSize blockRead, DataSize blockWrite, DataSize networkReceived, DataSize networkSent, long peakPids,
            long oomKills, long memoryLimitHits, Optional<PressureStall> pressureStallCpu,
            Optional<PressureStall> pressureStallMemory, Optional<PressureStall> pressureStallIo, Timeline timeline,
            List<Phase> phases) {
        this(container, image, probe, wallTime, before, after, peak, peakMemoryHighWaterMark, memoryLimit, cpuTime,
                cpuUserTime, cpuSystemTime, averageCpuPercent, peakCpuPercent, throttledPeriods, throttledTime,
                blockRead, blockWrite, networkReceived, networkSent, peakPids, oomKills, memoryLimitHits,
                pressureStallCpu, pressureStallMemory, pressureStallIo, timeline, phases, GpuUsage.notMeasured());
    }

    /** This usage with {@code gpu} as its GPU figures. */
    public ResourceUsage withGpu(GpuUsage gpu) {
        return new ResourceUsage(container, image, probe, wallTime, before, after, peak, peakMemoryHighWaterMark,
                memoryLimit, cpuTime, cpuUserTime, cpuSystemTime, averageCpuPercent, peakCpuPercent, throttledPeriods,
                throttledTime, blockRead, blockWrite, networkReceived, networkSent, peakPids, oomKills,
                memoryLimitHits, pressureStallCpu, pressureStallMemory, pressureStallIo, timeline, phases, gpu);
    }

    /**
     * The highest GPU memory the container's processes held; empty, not zero, when no GPU was seen (see
     * {@link #gpu()} for why).
     */
    public Optional<DataSize> peakGpuMemory() {
        return gpu.peakMemory();
    }

    /** The average utilisation of the GPUs the container used (device-wide); empty when no GPU was seen. */
    public Optional<Percentage> averageGpuUtilization() {
        return gpu.averageUtilization();
    }

    /** The energy of the GPUs the container used (device-wide); empty when no GPU was seen. */
    public Optional<Energy> gpuEnergy() {
        return gpu.energy();
    }

    /** The highest MEM USAGE seen during the test (see {@link #peak()} for when and how). */
    public DataSize peakMemory() {
        return peak.value();
    }

    /** Share of the memory limit left free at the peak; empty without a limit. */
    public Optional<Percentage> memoryHeadroom() {
        return memoryLimit.filter(limit -> limit.toBytes() > 0).map(limit -> Percentage
                .of(Math.max(0.0, 100.0 * (limit.toBytes() - peakMemory().toBytes()) / limit.toBytes())));
    }

    /**
     * The trend of memory over the test: the Theil–Sen slope of MEM USAGE against time, robust to spikes and to a
     * garbage collector's saw-tooth. A leak shows as a steady positive rate.
     */
    public DataRate memoryGrowth() {
        return MemoryGrowth.of(timeline.points());
    }

    /** The usage of the phase named {@code name}, if the test marked one. */
    public Optional<Phase> phase(String name) {
        return phases.stream().filter(phase -> phase.name().equals(name)).findFirst();
    }

    /**
     * A named part of a test, started with {@link ResourceMonitor#mark(String)} and ended by the next mark or the
     * end of the test.
     *
     * @param name the name given to {@code mark}
     * @param start when it started, measured from the start of the test
     * @param usage what the container used during the phase
     */
    public record Phase(String name, Duration start, ResourceUsage usage) {
    }
}
