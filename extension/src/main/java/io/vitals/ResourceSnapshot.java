package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

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
     * {@return a builder for Vitals' own code: every figure must be set except the optional ones, which start empty}
     * Not for users, who get snapshots from Vitals; it may change in any release.
     */
    @API(status = INTERNAL, since = "0.1")
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder that starts from this snapshot's figures, for Vitals' own code (see {@link #builder()})} */
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

    /** {@return wall-clock time of the reading} */
    public Instant takenAt() {
        return figures.takenAt();
    }

    /** {@return MEM USAGE as docker stats shows it: charged memory minus inactive file cache} */
    public DataSize memoryUsage() {
        return figures.memoryUsage();
    }

    /** {@return all memory charged to the container, page cache included} */
    public DataSize memoryCharged() {
        return figures.memoryCharged();
    }

    /** {@return the hard limit, empty when the container has none} */
    public Optional<DataSize> memoryLimit() {
        return figures.memoryLimit();
    }

    /** {@return file-backed memory (page cache)} */
    public DataSize pageCache() {
        return figures.pageCache();
    }

    /** {@return anonymous memory (heap, stacks, tensors)} */
    public DataSize anonymousMemory() {
        return figures.anonymousMemory();
    }

    /** {@return swap in use, where the host accounts it} */
    public Optional<DataSize> swap() {
        return figures.swap();
    }

    /** {@return total CPU time} */
    public Duration cpuTime() {
        return figures.cpuTime();
    }

    /** {@return CPU time in user mode (cgroup v1 counts it in 10 ms ticks)} */
    public Duration cpuUserTime() {
        return figures.cpuUserTime();
    }

    /** {@return CPU time in kernel mode} */
    public Duration cpuSystemTime() {
        return figures.cpuSystemTime();
    }

    /** {@return tasks (threads) in the container} */
    public long pids() {
        return figures.pids();
    }

    /** {@return bytes read from block devices} */
    public DataSize blockRead() {
        return figures.blockRead();
    }

    /** {@return bytes written to block devices} */
    public DataSize blockWrite() {
        return figures.blockWrite();
    }

    /** {@return bytes received} */
    public DataSize networkReceived() {
        return figures.networkReceived();
    }

    /** {@return bytes sent} */
    public DataSize networkSent() {
        return figures.networkSent();
    }

    /** {@return processes killed by the OOM killer} */
    public long oomKills() {
        return figures.oomKills();
    }

    /** {@return times memory use hit the limit} */
    public long memoryLimitHits() {
        return figures.memoryLimitHits();
    }

    /** {@return CFS periods in which the container was throttled} */
    public long throttledPeriods() {
        return figures.throttledPeriods();
    }

    /** {@return total time throttled} */
    public Duration throttledTime() {
        return figures.throttledTime();
    }

    /** {@return CPU pressure-stall totals, where the host exposes them} */
    public Optional<PressureStall> cpuPressure() {
        return figures.cpuPressure();
    }

    /** {@return memory pressure-stall totals} */
    public Optional<PressureStall> memoryPressure() {
        return figures.memoryPressure();
    }

    /** {@return I/O pressure-stall totals} */
    public Optional<PressureStall> ioPressure() {
        return figures.ioPressure();
    }

    /** {@return where the figures came from} */
    public ProbeKind probe() {
        return figures.probe();
    }

    /** {@return MEM % as docker stats computes it: usage over limit; empty without a limit} */
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

        /**
         * Sets {@link ResourceSnapshot#takenAt()}.
         *
         * @param takenAt the value, as {@link ResourceSnapshot#takenAt()} returns it
         * @return this builder
         */
        public Builder takenAt(Instant takenAt) {
            this.takenAt = takenAt;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#memoryUsage()}.
         *
         * @param memoryUsage the value, as {@link ResourceSnapshot#memoryUsage()} returns it
         * @return this builder
         */
        public Builder memoryUsage(DataSize memoryUsage) {
            this.memoryUsage = memoryUsage;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#memoryCharged()}.
         *
         * @param memoryCharged the value, as {@link ResourceSnapshot#memoryCharged()} returns it
         * @return this builder
         */
        public Builder memoryCharged(DataSize memoryCharged) {
            this.memoryCharged = memoryCharged;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#memoryLimit()}.
         *
         * @param memoryLimit the value, as {@link ResourceSnapshot#memoryLimit()} returns it
         * @return this builder
         */
        public Builder memoryLimit(Optional<DataSize> memoryLimit) {
            this.memoryLimit = memoryLimit;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#pageCache()}.
         *
         * @param pageCache the value, as {@link ResourceSnapshot#pageCache()} returns it
         * @return this builder
         */
        public Builder pageCache(DataSize pageCache) {
            this.pageCache = pageCache;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#anonymousMemory()}.
         *
         * @param anonymousMemory the value, as {@link ResourceSnapshot#anonymousMemory()} returns it
         * @return this builder
         */
        public Builder anonymousMemory(DataSize anonymousMemory) {
            this.anonymousMemory = anonymousMemory;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#swap()}.
         *
         * @param swap the value, as {@link ResourceSnapshot#swap()} returns it
         * @return this builder
         */
        public Builder swap(Optional<DataSize> swap) {
            this.swap = swap;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#cpuTime()}.
         *
         * @param cpuTime the value, as {@link ResourceSnapshot#cpuTime()} returns it
         * @return this builder
         */
        public Builder cpuTime(Duration cpuTime) {
            this.cpuTime = cpuTime;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#cpuUserTime()}.
         *
         * @param cpuUserTime the value, as {@link ResourceSnapshot#cpuUserTime()} returns it
         * @return this builder
         */
        public Builder cpuUserTime(Duration cpuUserTime) {
            this.cpuUserTime = cpuUserTime;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#cpuSystemTime()}.
         *
         * @param cpuSystemTime the value, as {@link ResourceSnapshot#cpuSystemTime()} returns it
         * @return this builder
         */
        public Builder cpuSystemTime(Duration cpuSystemTime) {
            this.cpuSystemTime = cpuSystemTime;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#pids()}.
         *
         * @param pids the value, as {@link ResourceSnapshot#pids()} returns it
         * @return this builder
         */
        public Builder pids(long pids) {
            this.pids = pids;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#blockRead()}.
         *
         * @param blockRead the value, as {@link ResourceSnapshot#blockRead()} returns it
         * @return this builder
         */
        public Builder blockRead(DataSize blockRead) {
            this.blockRead = blockRead;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#blockWrite()}.
         *
         * @param blockWrite the value, as {@link ResourceSnapshot#blockWrite()} returns it
         * @return this builder
         */
        public Builder blockWrite(DataSize blockWrite) {
            this.blockWrite = blockWrite;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#networkReceived()}.
         *
         * @param networkReceived the value, as {@link ResourceSnapshot#networkReceived()} returns it
         * @return this builder
         */
        public Builder networkReceived(DataSize networkReceived) {
            this.networkReceived = networkReceived;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#networkSent()}.
         *
         * @param networkSent the value, as {@link ResourceSnapshot#networkSent()} returns it
         * @return this builder
         */
        public Builder networkSent(DataSize networkSent) {
            this.networkSent = networkSent;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#oomKills()}.
         *
         * @param oomKills the value, as {@link ResourceSnapshot#oomKills()} returns it
         * @return this builder
         */
        public Builder oomKills(long oomKills) {
            this.oomKills = oomKills;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#memoryLimitHits()}.
         *
         * @param memoryLimitHits the value, as {@link ResourceSnapshot#memoryLimitHits()} returns it
         * @return this builder
         */
        public Builder memoryLimitHits(long memoryLimitHits) {
            this.memoryLimitHits = memoryLimitHits;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#throttledPeriods()}.
         *
         * @param throttledPeriods the value, as {@link ResourceSnapshot#throttledPeriods()} returns it
         * @return this builder
         */
        public Builder throttledPeriods(long throttledPeriods) {
            this.throttledPeriods = throttledPeriods;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#throttledTime()}.
         *
         * @param throttledTime the value, as {@link ResourceSnapshot#throttledTime()} returns it
         * @return this builder
         */
        public Builder throttledTime(Duration throttledTime) {
            this.throttledTime = throttledTime;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#cpuPressure()}.
         *
         * @param cpuPressure the value, as {@link ResourceSnapshot#cpuPressure()} returns it
         * @return this builder
         */
        public Builder cpuPressure(Optional<PressureStall> cpuPressure) {
            this.cpuPressure = cpuPressure;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#memoryPressure()}.
         *
         * @param memoryPressure the value, as {@link ResourceSnapshot#memoryPressure()} returns it
         * @return this builder
         */
        public Builder memoryPressure(Optional<PressureStall> memoryPressure) {
            this.memoryPressure = memoryPressure;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#ioPressure()}.
         *
         * @param ioPressure the value, as {@link ResourceSnapshot#ioPressure()} returns it
         * @return this builder
         */
        public Builder ioPressure(Optional<PressureStall> ioPressure) {
            this.ioPressure = ioPressure;
            return this;
        }

        /**
         * Sets {@link ResourceSnapshot#probe()}.
         *
         * @param probe the value, as {@link ResourceSnapshot#probe()} returns it
         * @return this builder
         */
        public Builder probe(ProbeKind probe) {
            this.probe = probe;
            return this;
        }

        /** {@return the snapshot} A {@link NullPointerException} names the first figure left unset. */
        public ResourceSnapshot build() {
            return new ResourceSnapshot(new SnapshotFigures(takenAt, memoryUsage, memoryCharged, memoryLimit,
                    pageCache, anonymousMemory, swap, cpuTime, cpuUserTime, cpuSystemTime, pids, blockRead, blockWrite,
                    networkReceived, networkSent, oomKills, memoryLimitHits, throttledPeriods, throttledTime,
                    cpuPressure, memoryPressure, ioPressure, probe));
        }
    }
}
