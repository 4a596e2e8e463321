package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.values.SnapshotFigures;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * A container's figures at one moment: gauges (memory, PIDs) as they were, counters (CPU time, bytes, OOM kills)
 * as totals since the container started. {@link ResourceUsage} holds the differences over a test.
 *
 * <p>Vitals takes snapshots ({@link ResourceMonitor#snapshot()}, {@link ResourceUsage#before()},
 * {@link ResourceUsage#after()}); users read them. Why a final class with an internal builder rather than a record:
 * see {@link ResourceUsage}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ResourceSnapshot {

    private final SnapshotFigures figures;

    private ResourceSnapshot(SnapshotFigures figures) {
        this.figures = figures;
    }

    /**
     * A builder for Vitals' own code: every figure must be set except the optional ones, which start empty.
     * Not for users, who get snapshots from Vitals; it may change in any release.
     */
    @API(status = INTERNAL, since = "0.1")
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this snapshot's figures, for Vitals' own code (see {@link #builder()}). */
    @API(status = INTERNAL, since = "0.1")
    public Builder toBuilder() {
        return builder().takenAt(takenAt()).memoryUsage(memoryUsage()).memoryCharged(memoryCharged())
                .memoryLimit(memoryLimit()).pageCache(pageCache()).anonymousMemory(anonymousMemory()).swap(swap())
                .cpuTime(cpuTime()).cpuUserTime(cpuUserTime()).cpuSystemTime(cpuSystemTime()).pids(pids())
                .blockRead(blockRead()).blockWrite(blockWrite()).networkReceived(networkReceived())
                .networkSent(networkSent()).oomKills(oomKills()).memoryLimitHits(memoryLimitHits())
                .throttledPeriods(throttledPeriods()).throttledTime(throttledTime()).cpuPressure(cpuPressure())
                .memoryPressure(memoryPressure()).ioPressure(ioPressure()).probe(probe());
    }

    /** Wall-clock time of the reading. */
    public Instant takenAt() {
        return figures.takenAt();
    }

    /** MEM USAGE as docker stats shows it: charged memory minus inactive file cache. */
    public DataSize memoryUsage() {
        return figures.memoryUsage();
    }

    /** All memory charged to the container, page cache included. */
    public DataSize memoryCharged() {
        return figures.memoryCharged();
    }

    /** The hard limit, empty when the container has none. */
    public Optional<DataSize> memoryLimit() {
        return figures.memoryLimit();
    }

    /** File-backed memory (page cache). */
    public DataSize pageCache() {
        return figures.pageCache();
    }

    /** Anonymous memory (heap, stacks, tensors). */
    public DataSize anonymousMemory() {
        return figures.anonymousMemory();
    }

    /** Swap in use, where the host accounts it. */
    public Optional<DataSize> swap() {
        return figures.swap();
    }

    /** Total CPU time. */
    public Duration cpuTime() {
        return figures.cpuTime();
    }

    /** CPU time in user mode (cgroup v1 counts it in 10 ms ticks). */
    public Duration cpuUserTime() {
        return figures.cpuUserTime();
    }

    /** CPU time in kernel mode. */
    public Duration cpuSystemTime() {
        return figures.cpuSystemTime();
    }

    /** Tasks (threads) in the container. */
    public long pids() {
        return figures.pids();
    }

    /** Bytes read from block devices. */
    public DataSize blockRead() {
        return figures.blockRead();
    }

    /** Bytes written to block devices. */
    public DataSize blockWrite() {
        return figures.blockWrite();
    }

    /** Bytes received. */
    public DataSize networkReceived() {
        return figures.networkReceived();
    }

    /** Bytes sent. */
    public DataSize networkSent() {
        return figures.networkSent();
    }

    /** Processes killed by the OOM killer. */
    public long oomKills() {
        return figures.oomKills();
    }

    /** Times memory use hit the limit. */
    public long memoryLimitHits() {
        return figures.memoryLimitHits();
    }

    /** CFS periods in which the container was throttled. */
    public long throttledPeriods() {
        return figures.throttledPeriods();
    }

    /** Total time throttled. */
    public Duration throttledTime() {
        return figures.throttledTime();
    }

    /** CPU pressure-stall totals, where the host exposes them. */
    public Optional<PressureStall> cpuPressure() {
        return figures.cpuPressure();
    }

    /** Memory pressure-stall totals. */
    public Optional<PressureStall> memoryPressure() {
        return figures.memoryPressure();
    }

    /** I/O pressure-stall totals. */
    public Optional<PressureStall> ioPressure() {
        return figures.ioPressure();
    }

    /** Where the figures came from. */
    public ProbeKind probe() {
        return figures.probe();
    }

    /** MEM % as docker stats computes it: usage over limit; empty without a limit. */
    public Optional<Percentage> memoryPercent() {
        return memoryLimit().filter(limit -> limit.toBytes() > 0)
                .map(limit -> Percentage.of(100.0 * memoryUsage().toBytes() / limit.toBytes()));
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ResourceSnapshot that && figures.equals(that.figures);
    }

    @Override
    public int hashCode() {
        return figures.hashCode();
    }

    /** The figures by name, as a record would print them; absent optional figures are {@code Optional.empty}. */
    @Override
    public String toString() {
        return figures.describe("ResourceSnapshot");
    }

    /**
     * Builds a {@link ResourceSnapshot} figure by figure, so that adding a figure adds a method rather than changing
     * a 23-argument constructor at every call. For Vitals' own code; {@link #build()} throws on a figure left unset.
     */
    @API(status = INTERNAL, since = "0.1")
    public static final class Builder {

        private Instant takenAt;
        private DataSize memoryUsage;
        private DataSize memoryCharged;
        private Optional<DataSize> memoryLimit = Optional.empty();
        private DataSize pageCache;
        private DataSize anonymousMemory;
        private Optional<DataSize> swap = Optional.empty();
        private Duration cpuTime;
        private Duration cpuUserTime;
        private Duration cpuSystemTime;
        private long pids;
        private DataSize blockRead;
        private DataSize blockWrite;
        private DataSize networkReceived;
        private DataSize networkSent;
        private long oomKills;
        private long memoryLimitHits;
        private long throttledPeriods;
        private Duration throttledTime;
        private Optional<PressureStall> cpuPressure = Optional.empty();
        private Optional<PressureStall> memoryPressure = Optional.empty();
        private Optional<PressureStall> ioPressure = Optional.empty();
        private ProbeKind probe;

        private Builder() {
        }

        public Builder takenAt(Instant takenAt) {
            this.takenAt = takenAt;
            return this;
        }

        public Builder memoryUsage(DataSize memoryUsage) {
            this.memoryUsage = memoryUsage;
            return this;
        }

        public Builder memoryCharged(DataSize memoryCharged) {
            this.memoryCharged = memoryCharged;
            return this;
        }

        public Builder memoryLimit(Optional<DataSize> memoryLimit) {
            this.memoryLimit = memoryLimit;
            return this;
        }

        public Builder pageCache(DataSize pageCache) {
            this.pageCache = pageCache;
            return this;
        }

        public Builder anonymousMemory(DataSize anonymousMemory) {
            this.anonymousMemory = anonymousMemory;
            return this;
        }

        public Builder swap(Optional<DataSize> swap) {
            this.swap = swap;
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

        public Builder pids(long pids) {
            this.pids = pids;
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

        public Builder oomKills(long oomKills) {
            this.oomKills = oomKills;
            return this;
        }

        public Builder memoryLimitHits(long memoryLimitHits) {
            this.memoryLimitHits = memoryLimitHits;
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

        public Builder cpuPressure(Optional<PressureStall> cpuPressure) {
            this.cpuPressure = cpuPressure;
            return this;
        }

        public Builder memoryPressure(Optional<PressureStall> memoryPressure) {
            this.memoryPressure = memoryPressure;
            return this;
        }

        public Builder ioPressure(Optional<PressureStall> ioPressure) {
            this.ioPressure = ioPressure;
            return this;
        }

        public Builder probe(ProbeKind probe) {
            this.probe = probe;
            return this;
        }

        /** The snapshot; {@link NullPointerException} naming the first figure left unset. */
        public ResourceSnapshot build() {
            return new ResourceSnapshot(new SnapshotFigures(takenAt, memoryUsage, memoryCharged, memoryLimit,
                    pageCache, anonymousMemory, swap, cpuTime, cpuUserTime, cpuSystemTime, pids, blockRead, blockWrite,
                    networkReceived, networkSent, oomKills, memoryLimitHits, throttledPeriods, throttledTime,
                    cpuPressure, memoryPressure, ioPressure, probe));
        }
    }
}
