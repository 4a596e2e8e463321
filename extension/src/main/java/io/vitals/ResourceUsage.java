package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

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
 * <p>Vitals measures usages and hands them to users ({@link ResourceMonitor}, the assertions, the reports); users do
 * not build them. Hence a final class rather than a record, whose canonical constructor would be public and would
 * change its signature, breaking every caller, each time a figure is added. Vitals builds usages with
 * {@link #builder()}, the way JUnit exposes what its own packages need across package boundaries
 * ({@code TestIdentifier.from}, {@code TestPlan.from}): a public member marked {@code @API(status = INTERNAL)}, which
 * apiguardian defines as not for use outside the library, and which IDEs and compatibility checkers (japicmp,
 * revapi) flag and leave out of compatibility reports. A builder in {@code io.vitals.internal} reaching a
 * package-private constructor would hide it further, but only through a bridge registered in static mutable state
 * or through reflection, both harder to follow than a marked method. A builder rather than a factory: a figure
 * added is a method added, not a longer argument list at every call.
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

    private ResourceUsage(Builder builder) {
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
    }

    /**
     * A builder for Vitals' own code: every figure must be set except the optional ones (empty), the phases (none)
     * and the GPU figures ({@link GpuUsage#notMeasured()}). Not for users, who get usages from Vitals; it may change
     * in any release.
     */
    @API(status = INTERNAL, since = "0.1")
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder that starts from this usage's figures, for Vitals' own code (see {@link #builder()}): how a further
     * source, such as the GPUs, adds its figures to a usage.
     */
    @API(status = INTERNAL, since = "0.1")
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The name of the container (its field name). */
    public String container() {
        return container;
    }

    /** The image it runs. */
    public String image() {
        return image;
    }

    /** Where the figures came from. */
    public ProbeKind probe() {
        return probe;
    }

    /** How long the measurement lasted. */
    public Duration wallTime() {
        return wallTime;
    }

    /** The snapshot at the start. */
    public ResourceSnapshot before() {
        return before;
    }

    /** The snapshot at the end (or the last one read, if the container stopped). */
    public ResourceSnapshot after() {
        return after;
    }

    /** The highest MEM USAGE among the samples, when it was seen and at which interval. */
    public PeakMemory peak() {
        return peak;
    }

    /**
     * The kernel's exact high-water mark of charged memory (page cache included) over the test, where the host keeps
     * a resettable one (cgroup v1; cgroup v2 from Linux 6.12).
     */
    public Optional<DataSize> peakMemoryHighWaterMark() {
        return peakMemoryHighWaterMark;
    }

    /** The container's memory limit, empty when it has none. */
    public Optional<DataSize> memoryLimit() {
        return memoryLimit;
    }

    /** CPU time used. */
    public Duration cpuTime() {
        return cpuTime;
    }

    /** CPU time in user mode. */
    public Duration cpuUserTime() {
        return cpuUserTime;
    }

    /** CPU time in kernel mode. */
    public Duration cpuSystemTime() {
        return cpuSystemTime;
    }

    /** CPU time over wall time, 100 % being one core. */
    public Percentage averageCpuPercent() {
        return averageCpuPercent;
    }

    /** The highest CPU % between two samples. */
    public Percentage peakCpuPercent() {
        return peakCpuPercent;
    }

    /** CFS periods in which the container was throttled by its CPU limit. */
    public long throttledPeriods() {
        return throttledPeriods;
    }

    /** Time the container was throttled. */
    public Duration throttledTime() {
        return throttledTime;
    }

    /** Bytes read from block devices. */
    public DataSize blockRead() {
        return blockRead;
    }

    /** Bytes written to block devices. */
    public DataSize blockWrite() {
        return blockWrite;
    }

    /** Bytes received. */
    public DataSize networkReceived() {
        return networkReceived;
    }

    /** Bytes sent. */
    public DataSize networkSent() {
        return networkSent;
    }

    /** The highest number of tasks seen. */
    public long peakPids() {
        return peakPids;
    }

    /** Processes the kernel's OOM killer killed in the container. */
    public long oomKills() {
        return oomKills;
    }

    /** Times memory use hit the limit (reclaim or OOM followed). */
    public long memoryLimitHits() {
        return memoryLimitHits;
    }

    /** Time stalled waiting for CPU, where the host exposes it. */
    public Optional<PressureStall> pressureStallCpu() {
        return pressureStallCpu;
    }

    /** Time stalled in memory reclaim. */
    public Optional<PressureStall> pressureStallMemory() {
        return pressureStallMemory;
    }

    /** Time stalled waiting on I/O. */
    public Optional<PressureStall> pressureStallIo() {
        return pressureStallIo;
    }

    /** The sampled figures in between. */
    public Timeline timeline() {
        return timeline;
    }

    /** The named phases marked during the test, each with its own usage. */
    public List<Phase> phases() {
        return phases;
    }

    /** What the container used of the GPUs, or why nothing was seen ({@link GpuUsage#NO_GPU_VISIBLE}). */
    public GpuUsage gpu() {
        return gpu;
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

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ResourceUsage that)) {
            return false;
        }
        return container.equals(that.container)
                && image.equals(that.image)
                && probe.equals(that.probe)
                && wallTime.equals(that.wallTime)
                && before.equals(that.before)
                && after.equals(that.after)
                && peak.equals(that.peak)
                && peakMemoryHighWaterMark.equals(that.peakMemoryHighWaterMark)
                && memoryLimit.equals(that.memoryLimit)
                && cpuTime.equals(that.cpuTime)
                && cpuUserTime.equals(that.cpuUserTime)
                && cpuSystemTime.equals(that.cpuSystemTime)
                && averageCpuPercent.equals(that.averageCpuPercent)
                && peakCpuPercent.equals(that.peakCpuPercent)
                && throttledPeriods == that.throttledPeriods
                && throttledTime.equals(that.throttledTime)
                && blockRead.equals(that.blockRead)
                && blockWrite.equals(that.blockWrite)
                && networkReceived.equals(that.networkReceived)
                && networkSent.equals(that.networkSent)
                && peakPids == that.peakPids
                && oomKills == that.oomKills
                && memoryLimitHits == that.memoryLimitHits
                && pressureStallCpu.equals(that.pressureStallCpu)
                && pressureStallMemory.equals(that.pressureStallMemory)
                && pressureStallIo.equals(that.pressureStallIo)
                && timeline.equals(that.timeline)
                && phases.equals(that.phases)
                && gpu.equals(that.gpu);
    }

    @Override
    public int hashCode() {
        return Objects.hash(container, image, probe, wallTime, before, after, peak, peakMemoryHighWaterMark,
                memoryLimit, cpuTime, cpuUserTime, cpuSystemTime, averageCpuPercent,
                peakCpuPercent, throttledPeriods, throttledTime, blockRead, blockWrite,
                networkReceived, networkSent, peakPids, oomKills, memoryLimitHits,
                pressureStallCpu, pressureStallMemory, pressureStallIo, timeline, phases, gpu);
    }

    /**
     * The figures by name; the snapshots are left out (the figures are their differences), the timeline is
     * summarised and the phases are named.
     */
    @Override
    public String toString() {
        return "ResourceUsage[container=" + container + ", image=" + image + ", probe=" + probe + ", wallTime="
                + wallTime + ", peak=" + peak + ", peakMemoryHighWaterMark=" + peakMemoryHighWaterMark
                + ", memoryLimit=" + memoryLimit + ", cpuTime=" + cpuTime + ", cpuUserTime=" + cpuUserTime
                + ", cpuSystemTime=" + cpuSystemTime + ", averageCpuPercent=" + averageCpuPercent
                + ", peakCpuPercent=" + peakCpuPercent + ", throttledPeriods=" + throttledPeriods
                + ", throttledTime=" + throttledTime + ", blockRead=" + blockRead + ", blockWrite=" + blockWrite
                + ", networkReceived=" + networkReceived + ", networkSent=" + networkSent + ", peakPids=" + peakPids
                + ", oomKills=" + oomKills + ", memoryLimitHits=" + memoryLimitHits + ", pressureStallCpu="
                + pressureStallCpu + ", pressureStallMemory=" + pressureStallMemory + ", pressureStallIo="
                + pressureStallIo + ", timeline=" + timeline.points().size() + " points of " + timeline.samples()
                + " samples every " + timeline.samplingInterval() + ", phases="
                + phases.stream().map(Phase::name).toList() + ", gpu=" + gpu + "]";
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

    /**
     * Builds a {@link ResourceUsage} figure by figure, so that adding a figure adds a method rather than changing a
     * 29-argument constructor at every call. For Vitals' own code; {@link #build()} throws on a figure left unset.
     */
    @API(status = INTERNAL, since = "0.1")
    public static final class Builder {

        private String container;
        private String image;
        private ProbeKind probe;
        private Duration wallTime;
        private ResourceSnapshot before;
        private ResourceSnapshot after;
        private PeakMemory peak;
        private Optional<DataSize> peakMemoryHighWaterMark = Optional.empty();
        private Optional<DataSize> memoryLimit = Optional.empty();
        private Duration cpuTime;
        private Duration cpuUserTime;
        private Duration cpuSystemTime;
        private Percentage averageCpuPercent;
        private Percentage peakCpuPercent;
        private long throttledPeriods;
        private Duration throttledTime;
        private DataSize blockRead;
        private DataSize blockWrite;
        private DataSize networkReceived;
        private DataSize networkSent;
        private long peakPids;
        private long oomKills;
        private long memoryLimitHits;
        private Optional<PressureStall> pressureStallCpu = Optional.empty();
        private Optional<PressureStall> pressureStallMemory = Optional.empty();
        private Optional<PressureStall> pressureStallIo = Optional.empty();
        private Timeline timeline;
        private List<Phase> phases = List.of();
        private GpuUsage gpu = GpuUsage.notMeasured();

        private Builder() {
        }

        private Builder(ResourceUsage source) {
            this.container = source.container;
            this.image = source.image;
            this.probe = source.probe;
            this.wallTime = source.wallTime;
            this.before = source.before;
            this.after = source.after;
            this.peak = source.peak;
            this.peakMemoryHighWaterMark = source.peakMemoryHighWaterMark;
            this.memoryLimit = source.memoryLimit;
            this.cpuTime = source.cpuTime;
            this.cpuUserTime = source.cpuUserTime;
            this.cpuSystemTime = source.cpuSystemTime;
            this.averageCpuPercent = source.averageCpuPercent;
            this.peakCpuPercent = source.peakCpuPercent;
            this.throttledPeriods = source.throttledPeriods;
            this.throttledTime = source.throttledTime;
            this.blockRead = source.blockRead;
            this.blockWrite = source.blockWrite;
            this.networkReceived = source.networkReceived;
            this.networkSent = source.networkSent;
            this.peakPids = source.peakPids;
            this.oomKills = source.oomKills;
            this.memoryLimitHits = source.memoryLimitHits;
            this.pressureStallCpu = source.pressureStallCpu;
            this.pressureStallMemory = source.pressureStallMemory;
            this.pressureStallIo = source.pressureStallIo;
            this.timeline = source.timeline;
            this.phases = source.phases;
            this.gpu = source.gpu;
        }

        public Builder container(String container) {
            this.container = container;
            return this;
        }

        public Builder image(String image) {
            this.image = image;
            return this;
        }

        public Builder probe(ProbeKind probe) {
            this.probe = probe;
            return this;
        }

        public Builder wallTime(Duration wallTime) {
            this.wallTime = wallTime;
            return this;
        }

        public Builder before(ResourceSnapshot before) {
            this.before = before;
            return this;
        }

        public Builder after(ResourceSnapshot after) {
            this.after = after;
            return this;
        }

        public Builder peak(PeakMemory peak) {
            this.peak = peak;
            return this;
        }

        public Builder peakMemoryHighWaterMark(Optional<DataSize> peakMemoryHighWaterMark) {
            this.peakMemoryHighWaterMark = peakMemoryHighWaterMark;
            return this;
        }

        public Builder memoryLimit(Optional<DataSize> memoryLimit) {
            this.memoryLimit = memoryLimit;
            return this;
        }

        public Builder cpuTime(Duration cpuTime) {
            this.cpuTime = cpuTime;
            return this;
        }

        public Builder cpuUserTime(Duration cpuUserTime) {
            this.cpuUserTime = cpuUserTime;
            return this;
        }

        public Builder cpuSystemTime(Duration cpuSystemTime) {
            this.cpuSystemTime = cpuSystemTime;
            return this;
        }

        public Builder averageCpuPercent(Percentage averageCpuPercent) {
            this.averageCpuPercent = averageCpuPercent;
            return this;
        }

        public Builder peakCpuPercent(Percentage peakCpuPercent) {
            this.peakCpuPercent = peakCpuPercent;
            return this;
        }

        public Builder throttledPeriods(long throttledPeriods) {
            this.throttledPeriods = throttledPeriods;
            return this;
        }

        public Builder throttledTime(Duration throttledTime) {
            this.throttledTime = throttledTime;
            return this;
        }

        public Builder blockRead(DataSize blockRead) {
            this.blockRead = blockRead;
            return this;
        }

        public Builder blockWrite(DataSize blockWrite) {
            this.blockWrite = blockWrite;
            return this;
        }

        public Builder networkReceived(DataSize networkReceived) {
            this.networkReceived = networkReceived;
            return this;
        }

        public Builder networkSent(DataSize networkSent) {
            this.networkSent = networkSent;
            return this;
        }

        public Builder peakPids(long peakPids) {
            this.peakPids = peakPids;
            return this;
        }

        public Builder oomKills(long oomKills) {
            this.oomKills = oomKills;
            return this;
        }

        public Builder memoryLimitHits(long memoryLimitHits) {
            this.memoryLimitHits = memoryLimitHits;
            return this;
        }

        public Builder pressureStallCpu(Optional<PressureStall> pressureStallCpu) {
            this.pressureStallCpu = pressureStallCpu;
            return this;
        }

        public Builder pressureStallMemory(Optional<PressureStall> pressureStallMemory) {
            this.pressureStallMemory = pressureStallMemory;
            return this;
        }

        public Builder pressureStallIo(Optional<PressureStall> pressureStallIo) {
            this.pressureStallIo = pressureStallIo;
            return this;
        }

        public Builder timeline(Timeline timeline) {
            this.timeline = timeline;
            return this;
        }

        public Builder phases(List<Phase> phases) {
            this.phases = phases;
            return this;
        }

        public Builder gpu(GpuUsage gpu) {
            this.gpu = gpu;
            return this;
        }

        /** The usage; {@link NullPointerException} naming the first figure left unset. */
        public ResourceUsage build() {
            return new ResourceUsage(this);
        }
    }
}
