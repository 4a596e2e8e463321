package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.SourcedFigures;

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
    SourcedFigures sourcedFigures = SourcedFigures.absent("not measured: this usage was built without a probe");

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

    public ResourceUsageBuilder container(String container) {
        this.container = container;
        return this;
    }

    public ResourceUsageBuilder image(String image) {
        this.image = image;
        return this;
    }

    public ResourceUsageBuilder probe(ProbeKind probe) {
        this.probe = probe;
        return this;
    }

    public ResourceUsageBuilder wallTime(Duration wallTime) {
        this.wallTime = wallTime;
        return this;
    }

    public ResourceUsageBuilder before(ResourceSnapshot before) {
        this.before = before;
        return this;
    }

    public ResourceUsageBuilder after(ResourceSnapshot after) {
        this.after = after;
        return this;
    }

    public ResourceUsageBuilder peak(PeakMemory peak) {
        this.peak = peak;
        return this;
    }

    public ResourceUsageBuilder peakMemoryHighWaterMark(Optional<DataSize> peakMemoryHighWaterMark) {
        this.peakMemoryHighWaterMark = peakMemoryHighWaterMark;
        return this;
    }

    public ResourceUsageBuilder memoryLimit(Optional<DataSize> memoryLimit) {
        this.memoryLimit = memoryLimit;
        return this;
    }

    public ResourceUsageBuilder cpuTime(Duration cpuTime) {
        this.cpuTime = cpuTime;
        return this;
    }

    public ResourceUsageBuilder cpuUserTime(Duration cpuUserTime) {
        this.cpuUserTime = cpuUserTime;
        return this;
    }

    public ResourceUsageBuilder cpuSystemTime(Duration cpuSystemTime) {
        this.cpuSystemTime = cpuSystemTime;
        return this;
    }

    public ResourceUsageBuilder averageCpuPercent(Percentage averageCpuPercent) {
        this.averageCpuPercent = averageCpuPercent;
        return this;
    }

    public ResourceUsageBuilder peakCpuPercent(Percentage peakCpuPercent) {
        this.peakCpuPercent = peakCpuPercent;
        return this;
    }

    public ResourceUsageBuilder throttledPeriods(long throttledPeriods) {
        this.throttledPeriods = throttledPeriods;
        return this;
    }

    public ResourceUsageBuilder throttledTime(Duration throttledTime) {
        this.throttledTime = throttledTime;
        return this;
    }

    public ResourceUsageBuilder blockRead(DataSize blockRead) {
        this.blockRead = blockRead;
        return this;
    }

    public ResourceUsageBuilder blockWrite(DataSize blockWrite) {
        this.blockWrite = blockWrite;
        return this;
    }

    public ResourceUsageBuilder networkReceived(DataSize networkReceived) {
        this.networkReceived = networkReceived;
        return this;
    }

    public ResourceUsageBuilder networkSent(DataSize networkSent) {
        this.networkSent = networkSent;
        return this;
    }

    public ResourceUsageBuilder peakPids(long peakPids) {
        this.peakPids = peakPids;
        return this;
    }

    public ResourceUsageBuilder oomKills(long oomKills) {
        this.oomKills = oomKills;
        return this;
    }

    public ResourceUsageBuilder memoryLimitHits(long memoryLimitHits) {
        this.memoryLimitHits = memoryLimitHits;
        return this;
    }

    public ResourceUsageBuilder pressureStallCpu(Optional<PressureStall> pressureStallCpu) {
        this.pressureStallCpu = pressureStallCpu;
        return this;
    }

    public ResourceUsageBuilder pressureStallMemory(Optional<PressureStall> pressureStallMemory) {
        this.pressureStallMemory = pressureStallMemory;
        return this;
    }

    public ResourceUsageBuilder pressureStallIo(Optional<PressureStall> pressureStallIo) {
        this.pressureStallIo = pressureStallIo;
        return this;
    }

    public ResourceUsageBuilder timeline(Timeline timeline) {
        this.timeline = timeline;
        return this;
    }

    public ResourceUsageBuilder phases(List<ResourceUsage.Phase> phases) {
        this.phases = phases;
        return this;
    }

    public ResourceUsageBuilder gpu(GpuUsage gpu) {
        this.gpu = gpu;
        return this;
    }

    /** The figures read from the descriptors' sources ({@code io.vitals.internal.metric.FigureSource}). */
    public ResourceUsageBuilder sourcedFigures(SourcedFigures sourcedFigures) {
        this.sourcedFigures = sourcedFigures;
        return this;
    }

    /** The usage; {@link NullPointerException} naming the first figure left unset. */
    public ResourceUsage build() {
        return new ResourceUsage(this);
    }
}
