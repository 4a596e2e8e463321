package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Builds a {@link ResourceUsage} figure by figure, so that adding a figure adds a method rather than changing a
 * 29-argument constructor at every call. For Vitals' own code; {@link #build()} throws on a figure left unset.
 */
@API(status = INTERNAL, since = "0.1")
public final class ResourceUsageBuilder {

    String container;
    String image;
    ProbeKind probe;
    Duration wallTime;
    ResourceSnapshot before;
    ResourceSnapshot after;
    PeakMemory peak;
    Optional<DataSize> peakMemoryHighWaterMark = Optional.empty();
    Optional<DataSize> memoryLimit = Optional.empty();
    Duration cpuTime;
    Duration cpuUserTime;
    Duration cpuSystemTime;
    Percentage averageCpuPercent;
    Percentage peakCpuPercent;
    long throttledPeriods;
    Duration throttledTime;
    DataSize blockRead;
    DataSize blockWrite;
    DataSize networkReceived;
    DataSize networkSent;
    long peakPids;
    long oomKills;
    long memoryLimitHits;
    Optional<PressureStall> pressureStallCpu = Optional.empty();
    Optional<PressureStall> pressureStallMemory = Optional.empty();
    Optional<PressureStall> pressureStallIo = Optional.empty();
    Timeline timeline;
    List<ResourceUsage.Phase> phases = List.of();
    GpuUsage gpu = GpuUsage.notMeasured();
    SourcedValues sourcedFigures = FigureModels.MODEL.absent("not measured: this usage was built without a probe");

    ResourceUsageBuilder() {
    }

    ResourceUsageBuilder(ResourceUsage source) {
        this.container = source.container();
        this.image = source.image();
        this.probe = source.probe();
        this.wallTime = source.wallTime();
        this.before = source.before();
        this.after = source.after();
        this.peak = source.peak();
        this.peakMemoryHighWaterMark = source.peakMemoryHighWaterMark();
        this.memoryLimit = source.memoryLimit();
        this.cpuTime = source.cpuTime();
        this.cpuUserTime = source.cpuUserTime();
        this.cpuSystemTime = source.cpuSystemTime();
        this.averageCpuPercent = source.averageCpuPercent();
        this.peakCpuPercent = source.peakCpuPercent();
        this.throttledPeriods = source.throttledPeriods();
        this.throttledTime = source.throttledTime();
        this.blockRead = source.blockRead();
        this.blockWrite = source.blockWrite();
        this.networkReceived = source.networkReceived();
        this.networkSent = source.networkSent();
        this.peakPids = source.peakPids();
        this.oomKills = source.oomKills();
        this.memoryLimitHits = source.memoryLimitHits();
        this.pressureStallCpu = source.pressureStallCpu();
        this.pressureStallMemory = source.pressureStallMemory();
        this.pressureStallIo = source.pressureStallIo();
        this.timeline = source.timeline();
        this.phases = source.phases();
        this.gpu = source.gpu();
        this.sourcedFigures = source.sourcedFigures();
    }

    /**
     * Sets {@link ResourceUsage#container()}.
     *
     * @param container the value, as {@link ResourceUsage#container()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder container(String container) {
        this.container = container;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#image()}.
     *
     * @param image the value, as {@link ResourceUsage#image()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder image(String image) {
        this.image = image;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#probe()}.
     *
     * @param probe the value, as {@link ResourceUsage#probe()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder probe(ProbeKind probe) {
        this.probe = probe;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#wallTime()}.
     *
     * @param wallTime the value, as {@link ResourceUsage#wallTime()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder wallTime(Duration wallTime) {
        this.wallTime = wallTime;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#before()}.
     *
     * @param before the value, as {@link ResourceUsage#before()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder before(ResourceSnapshot before) {
        this.before = before;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#after()}.
     *
     * @param after the value, as {@link ResourceUsage#after()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder after(ResourceSnapshot after) {
        this.after = after;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#peak()}.
     *
     * @param peak the value, as {@link ResourceUsage#peak()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder peak(PeakMemory peak) {
        this.peak = peak;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#peakMemoryHighWaterMark()}.
     *
     * @param peakMemoryHighWaterMark the value, as {@link ResourceUsage#peakMemoryHighWaterMark()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder peakMemoryHighWaterMark(Optional<DataSize> peakMemoryHighWaterMark) {
        this.peakMemoryHighWaterMark = peakMemoryHighWaterMark;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#memoryLimit()}.
     *
     * @param memoryLimit the value, as {@link ResourceUsage#memoryLimit()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder memoryLimit(Optional<DataSize> memoryLimit) {
        this.memoryLimit = memoryLimit;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#cpuTime()}.
     *
     * @param cpuTime the value, as {@link ResourceUsage#cpuTime()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder cpuTime(Duration cpuTime) {
        this.cpuTime = cpuTime;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#cpuUserTime()}.
     *
     * @param cpuUserTime the value, as {@link ResourceUsage#cpuUserTime()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder cpuUserTime(Duration cpuUserTime) {
        this.cpuUserTime = cpuUserTime;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#cpuSystemTime()}.
     *
     * @param cpuSystemTime the value, as {@link ResourceUsage#cpuSystemTime()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder cpuSystemTime(Duration cpuSystemTime) {
        this.cpuSystemTime = cpuSystemTime;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#averageCpuPercent()}.
     *
     * @param averageCpuPercent the value, as {@link ResourceUsage#averageCpuPercent()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder averageCpuPercent(Percentage averageCpuPercent) {
        this.averageCpuPercent = averageCpuPercent;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#peakCpuPercent()}.
     *
     * @param peakCpuPercent the value, as {@link ResourceUsage#peakCpuPercent()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder peakCpuPercent(Percentage peakCpuPercent) {
        this.peakCpuPercent = peakCpuPercent;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#throttledPeriods()}.
     *
     * @param throttledPeriods the value, as {@link ResourceUsage#throttledPeriods()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder throttledPeriods(long throttledPeriods) {
        this.throttledPeriods = throttledPeriods;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#throttledTime()}.
     *
     * @param throttledTime the value, as {@link ResourceUsage#throttledTime()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder throttledTime(Duration throttledTime) {
        this.throttledTime = throttledTime;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#blockRead()}.
     *
     * @param blockRead the value, as {@link ResourceUsage#blockRead()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder blockRead(DataSize blockRead) {
        this.blockRead = blockRead;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#blockWrite()}.
     *
     * @param blockWrite the value, as {@link ResourceUsage#blockWrite()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder blockWrite(DataSize blockWrite) {
        this.blockWrite = blockWrite;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#networkReceived()}.
     *
     * @param networkReceived the value, as {@link ResourceUsage#networkReceived()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder networkReceived(DataSize networkReceived) {
        this.networkReceived = networkReceived;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#networkSent()}.
     *
     * @param networkSent the value, as {@link ResourceUsage#networkSent()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder networkSent(DataSize networkSent) {
        this.networkSent = networkSent;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#peakPids()}.
     *
     * @param peakPids the value, as {@link ResourceUsage#peakPids()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder peakPids(long peakPids) {
        this.peakPids = peakPids;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#oomKills()}.
     *
     * @param oomKills the value, as {@link ResourceUsage#oomKills()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder oomKills(long oomKills) {
        this.oomKills = oomKills;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#memoryLimitHits()}.
     *
     * @param memoryLimitHits the value, as {@link ResourceUsage#memoryLimitHits()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder memoryLimitHits(long memoryLimitHits) {
        this.memoryLimitHits = memoryLimitHits;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#pressureStallCpu()}.
     *
     * @param pressureStallCpu the value, as {@link ResourceUsage#pressureStallCpu()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder pressureStallCpu(Optional<PressureStall> pressureStallCpu) {
        this.pressureStallCpu = pressureStallCpu;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#pressureStallMemory()}.
     *
     * @param pressureStallMemory the value, as {@link ResourceUsage#pressureStallMemory()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder pressureStallMemory(Optional<PressureStall> pressureStallMemory) {
        this.pressureStallMemory = pressureStallMemory;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#pressureStallIo()}.
     *
     * @param pressureStallIo the value, as {@link ResourceUsage#pressureStallIo()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder pressureStallIo(Optional<PressureStall> pressureStallIo) {
        this.pressureStallIo = pressureStallIo;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#timeline()}.
     *
     * @param timeline the value, as {@link ResourceUsage#timeline()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder timeline(Timeline timeline) {
        this.timeline = timeline;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#phases()}.
     *
     * @param phases the value, as {@link ResourceUsage#phases()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder phases(List<ResourceUsage.Phase> phases) {
        this.phases = phases;
        return this;
    }

    /**
     * Sets {@link ResourceUsage#gpu()}.
     *
     * @param gpu the value, as {@link ResourceUsage#gpu()} returns it
     * @return this builder
     */
    public ResourceUsageBuilder gpu(GpuUsage gpu) {
        this.gpu = gpu;
        return this;
    }

    /**
     * The figures read from the descriptors' sources ({@code io.vitals.internal.metric.FigureSource}).
     *
     * @param sourcedFigures what each source read, or why it could not
     * @return this builder
     */
    public ResourceUsageBuilder sourcedFigures(SourcedValues sourcedFigures) {
        this.sourcedFigures = sourcedFigures;
        return this;
    }

    /** {@return the usage} A {@link NullPointerException} names the first figure left unset. */
    public ResourceUsage build() {
        return new ResourceUsage(this);
    }
}
