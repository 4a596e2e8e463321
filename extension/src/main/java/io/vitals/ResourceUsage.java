package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;


import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * What one container used during one test (or one phase of it): the differences of its counters between the
 * snapshots {@code before} and {@code after}, and the peaks of its gauges in between.
 *
 * <p>When a container is shared by several tests (a static {@code @Container} field), each test's usage covers that
 * test alone: counters are differences, and peaks come from the test's own samples and a high-water mark reset at
 * its start.
 *
 * <p>Vitals measures usages and hands them to users ({@link ResourceMonitor}, the assertions, the reports); users do
 * not build them. Hence a final class rather than a record, whose public canonical constructor would change its
 * signature, breaking every caller, each time a figure is added. Vitals builds usages with {@link #builder()}, a
 * public member marked {@code @API(status = INTERNAL)} as JUnit marks {@code TestIdentifier.from}: apiguardian
 * defines it as not for use outside the library, and compatibility checkers (japicmp, revapi) leave it out.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ResourceUsage {

    private final String container;
    private final String image;
    private final ProbeKind probe;
    private final Duration wallTime;
    private final ResourceSnapshot before;
    private final ResourceSnapshot after;
    private final PeakMemory peak;
    private final Optional<DataSize> peakMemoryHighWaterMark;
    private final Optional<DataSize> memoryLimit;
    private final Duration cpuTime;
    private final Duration cpuUserTime;
    private final Duration cpuSystemTime;
    private final Percentage averageCpuPercent;
    private final Percentage peakCpuPercent;
    private final long throttledPeriods;
    private final Duration throttledTime;
    private final DataSize blockRead;
    private final DataSize blockWrite;
    private final DataSize networkReceived;
    private final DataSize networkSent;
    private final long peakPids;
    private final long oomKills;
    private final long memoryLimitHits;
    private final Optional<PressureStall> pressureStallCpu;
    private final Optional<PressureStall> pressureStallMemory;
    private final Optional<PressureStall> pressureStallIo;
    private final Timeline timeline;
    private final List<Phase> phases;
    private final GpuUsage gpu;
    private final SourcedValues sourcedFigures;

    ResourceUsage(ResourceUsageBuilder builder) {
        this.container = Objects.requireNonNull(builder.container, "container");
        this.image = Objects.requireNonNull(builder.image, "image");
        this.probe = Objects.requireNonNull(builder.probe, "probe");
        this.wallTime = Objects.requireNonNull(builder.wallTime, "wallTime");
        this.before = Objects.requireNonNull(builder.before, "before");
        this.after = Objects.requireNonNull(builder.after, "after");
        this.peak = Objects.requireNonNull(builder.peak, "peak");
        this.peakMemoryHighWaterMark =
                Objects.requireNonNull(builder.peakMemoryHighWaterMark, "peakMemoryHighWaterMark");
        this.memoryLimit = Objects.requireNonNull(builder.memoryLimit, "memoryLimit");
        this.cpuTime = Objects.requireNonNull(builder.cpuTime, "cpuTime");
        this.cpuUserTime = Objects.requireNonNull(builder.cpuUserTime, "cpuUserTime");
        this.cpuSystemTime = Objects.requireNonNull(builder.cpuSystemTime, "cpuSystemTime");
        this.averageCpuPercent = Objects.requireNonNull(builder.averageCpuPercent, "averageCpuPercent");
        this.peakCpuPercent = Objects.requireNonNull(builder.peakCpuPercent, "peakCpuPercent");
        this.throttledPeriods = builder.throttledPeriods;
        this.throttledTime = Objects.requireNonNull(builder.throttledTime, "throttledTime");
        this.blockRead = Objects.requireNonNull(builder.blockRead, "blockRead");
        this.blockWrite = Objects.requireNonNull(builder.blockWrite, "blockWrite");
        this.networkReceived = Objects.requireNonNull(builder.networkReceived, "networkReceived");
        this.networkSent = Objects.requireNonNull(builder.networkSent, "networkSent");
        this.peakPids = builder.peakPids;
        this.oomKills = builder.oomKills;
        this.memoryLimitHits = builder.memoryLimitHits;
        this.pressureStallCpu = Objects.requireNonNull(builder.pressureStallCpu, "pressureStallCpu");
        this.pressureStallMemory = Objects.requireNonNull(builder.pressureStallMemory, "pressureStallMemory");
        this.pressureStallIo = Objects.requireNonNull(builder.pressureStallIo, "pressureStallIo");
        this.timeline = Objects.requireNonNull(builder.timeline, "timeline");
        this.phases = List.copyOf(builder.phases);
        this.gpu = Objects.requireNonNull(builder.gpu, "gpu");
        this.sourcedFigures = Objects.requireNonNull(builder.sourcedFigures, "sourcedFigures");
    }

    /**
     * {@return a builder for Vitals' own code: every figure must be set except the optional ones (empty), the phases
     * (none) and the GPU figures ({@link GpuUsage#notMeasured()})} Not for users, who get usages from Vitals; it may
     * change in any release.
     */
    @API(status = INTERNAL, since = "0.1")
    public static ResourceUsageBuilder builder() {
        return new ResourceUsageBuilder();
    }

    /**
     * {@return a builder that starts from this usage's figures, for Vitals' own code (see {@link #builder()}): how a
     * further source, such as the GPUs, adds its figures to a usage}
     */
    @API(status = INTERNAL, since = "0.1")
    public ResourceUsageBuilder toBuilder() {
        return new ResourceUsageBuilder(this);
    }

    /** {@return the name of the container (its field name)} */
    public String container() {
        return container;
    }

    /** {@return the image it runs} */
    public String image() {
        return image;
    }

    /** {@return where the figures came from} */
    public ProbeKind probe() {
        return probe;
    }

    /** {@return how long the measurement lasted} */
    public Duration wallTime() {
        return wallTime;
    }

    /** {@return the snapshot at the start} */
    public ResourceSnapshot before() {
        return before;
    }

    /** {@return the snapshot at the end (or the last one read, if the container stopped)} */
    public ResourceSnapshot after() {
        return after;
    }

    /** {@return the highest MEM USAGE among the samples, when it was seen and at which interval} */
    public PeakMemory peak() {
        return peak;
    }

    /**
     * {@return the kernel's exact high-water mark of charged memory (page cache included) over the test, where the host
     * keeps a resettable one (cgroup v1; cgroup v2 from Linux 6.12)}
     */
    public Optional<DataSize> peakMemoryHighWaterMark() {
        return peakMemoryHighWaterMark;
    }

    /** {@return the container's memory limit, empty when it has none} */
    public Optional<DataSize> memoryLimit() {
        return memoryLimit;
    }

    /** {@return CPU time used} */
    public Duration cpuTime() {
        return cpuTime;
    }

    /** {@return CPU time in user mode} */
    public Duration cpuUserTime() {
        return cpuUserTime;
    }

    /** {@return CPU time in kernel mode} */
    public Duration cpuSystemTime() {
        return cpuSystemTime;
    }

    /** {@return CPU time over wall time, 100 % being one core} */
    public Percentage averageCpuPercent() {
        return averageCpuPercent;
    }

    /** {@return the highest CPU % between two samples} */
    public Percentage peakCpuPercent() {
        return peakCpuPercent;
    }

    /** {@return CFS periods in which the container was throttled by its CPU limit} */
    public long throttledPeriods() {
        return throttledPeriods;
    }

    /** {@return time the container was throttled} */
    public Duration throttledTime() {
        return throttledTime;
    }

    /** {@return bytes read from block devices} */
    public DataSize blockRead() {
        return blockRead;
    }

    /** {@return bytes written to block devices} */
    public DataSize blockWrite() {
        return blockWrite;
    }

    /** {@return bytes received} */
    public DataSize networkReceived() {
        return networkReceived;
    }

    /** {@return bytes sent} */
    public DataSize networkSent() {
        return networkSent;
    }

    /** {@return the highest number of tasks seen} */
    public long peakPids() {
        return peakPids;
    }

    /** {@return processes the kernel's OOM killer killed in the container} */
    public long oomKills() {
        return oomKills;
    }

    /** {@return times memory use hit the limit (reclaim or OOM followed)} */
    public long memoryLimitHits() {
        return memoryLimitHits;
    }

    /** {@return time stalled waiting for CPU, where the host exposes it} */
    public Optional<PressureStall> pressureStallCpu() {
        return pressureStallCpu;
    }

    /** {@return time stalled in memory reclaim} */
    public Optional<PressureStall> pressureStallMemory() {
        return pressureStallMemory;
    }

    /** {@return time stalled waiting on I/O} */
    public Optional<PressureStall> pressureStallIo() {
        return pressureStallIo;
    }

    /** {@return the sampled figures in between} */
    public Timeline timeline() {
        return timeline;
    }

    /** {@return the named phases marked during the test, each with its own usage} */
    public List<Phase> phases() {
        return phases;
    }

    /** {@return what the container used of the GPUs, or why nothing was seen ({@link GpuUsage#NO_GPU_VISIBLE})} */
    public GpuUsage gpu() {
        return gpu;
    }

    /**
     * {@return the highest GPU memory the container's processes held; empty, not zero, when no GPU was seen (see {@link
     * #gpu()} for why)}
     */
    public Optional<DataSize> peakGpuMemory() {
        return gpu.peakMemory();
    }

    /** {@return the average utilisation of the GPUs the container used (device-wide); empty when no GPU was seen} */
    public Optional<Percentage> averageGpuUtilization() {
        return gpu.averageUtilization();
    }

    /** {@return the energy of the GPUs the container used (device-wide); empty when no GPU was seen} */
    public Optional<Energy> gpuEnergy() {
        return gpu.energy();
    }

    /**
     * {@return major page faults: pages the kernel had to read from disk (memory-mapped datasets and weights, pages
     * reclaimed under the memory limit and needed again); memory.stat's {@code pgmajfault}} Empty where the host cannot
     * read it.
     */
    public OptionalLong majorPageFaults() {
        return whole("majorPageFaults");
    }

    /**
     * {@return anonymous memory (heaps, tensors, the Python interpreter) at the reading with the highest working set:
     * the first part of the peak's composition} Empty where the host cannot read it.
     */
    public Optional<DataSize> peakAnonymousMemory() {
        return size("peakAnonymousMemory");
    }

    /**
     * {@return page cache, shared memory included, at the reading with the highest working set; empty where not read}
     */
    public Optional<DataSize> peakPageCache() {
        return size("peakPageCache");
    }

    /**
     * {@return shared memory ({@code /dev/shm}, tmpfs) at the reading with the highest working set; part of the page
     * cache}
     */
    public Optional<DataSize> peakSharedMemory() {
        return size("peakSharedMemory");
    }

    /** {@return kernel memory (slab, stacks, page tables, sockets) at the reading with the highest working set} */
    public Optional<DataSize> peakKernelMemory() {
        return size("peakKernelMemory");
    }

    /**
     * {@return the figures read from the descriptors' sources, each with why it is missing where it is; for Vitals' own
     * code}
     */
    @API(status = INTERNAL, since = "0.1")
    public SourcedValues sourcedFigures() {
        return sourcedFigures;
    }

    private OptionalLong whole(String key) {
        double value = sourcedFigures.read(key);
        return Double.isNaN(value) ? OptionalLong.empty() : OptionalLong.of(Math.round(value));
    }

    private Optional<DataSize> size(String key) {
        double value = sourcedFigures.read(key);
        return Double.isNaN(value) ? Optional.empty() : Optional.of(DataSize.ofBytes(Math.round(value)));
    }

    /** {@return the highest MEM USAGE seen during the test (see {@link #peak()} for when and how)} */
    public DataSize peakMemory() {
        return peak.value();
    }

    /** {@return share of the memory limit left free at the peak; empty without a limit} */
    public Optional<Percentage> memoryHeadroom() {
        return memoryLimit.filter(limit -> limit.toBytes() > 0).map(limit -> Percentage
                .of(Math.max(0.0, 100.0 * (limit.toBytes() - peakMemory().toBytes()) / limit.toBytes())));
    }

    /**
     * {@return the trend of memory over the test: the Theil–Sen slope of MEM USAGE against time, robust to spikes and
     * to a garbage collector's saw-tooth} A leak shows as a steady positive rate.
     */
    public DataRate memoryGrowth() {
        return MemoryGrowth.of(timeline.points());
    }

    /**
     * The usage of the phase named {@code name}, if the test marked one.
     *
     * @param name the phase's name, as given to {@link ResourceMonitor#mark(String)}
     * @return its usage, or empty if the test marked no phase of that name
     */
    public Optional<Phase> phase(String name) {
        return phases.stream().filter(phase -> phase.name().equals(name)).findFirst();
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ResourceUsage that && parts().equals(that.parts());
    }

    @Override
    public int hashCode() {
        return parts().hashCode();
    }

    // every field, for equals and hashCode: one list to extend when a field is added, not two
    private List<Object> parts() {
        return Arrays.asList(container, image, probe, wallTime, before, after, peak, peakMemoryHighWaterMark,
                memoryLimit, cpuTime, cpuUserTime, cpuSystemTime, averageCpuPercent, peakCpuPercent, throttledPeriods,
                throttledTime, blockRead, blockWrite, networkReceived, networkSent, peakPids, oomKills,
                memoryLimitHits, pressureStallCpu, pressureStallMemory, pressureStallIo, timeline, phases, gpu,
                sourcedFigures);
    }

    /** The container, then every figure as the reports print it ({@code peakMemory=812.0 MiB}, absent ones as –). */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("ResourceUsage[container=").append(container).append(", image=")
                .append(image).append(", probe=").append(probe).append(", ").append(FigureModels.MODEL.describe(this));
        return text.append(", timeline=").append(timeline.points().size()).append(" points of ")
                .append(timeline.samples()).append(" samples every ").append(timeline.samplingInterval())
                .append(", phases=").append(phases.stream().map(Phase::name).toList()).append(']').toString();
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
