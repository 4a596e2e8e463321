package io.vitals;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The figures of a {@link io.vitals.ResourceSnapshot}, which documents each; the snapshot stays a final class with a
 * builder for users, and keeps its figures here so that equality comes with the record.
 */
record SnapshotFigures(Instant takenAt, DataSize memoryUsage, DataSize memoryCharged,
        Optional<DataSize> memoryLimit, DataSize pageCache, DataSize anonymousMemory, Optional<DataSize> swap,
        Duration cpuTime, Duration cpuUserTime, Duration cpuSystemTime, long pids, DataSize blockRead,
        DataSize blockWrite, DataSize networkReceived, DataSize networkSent, long oomKills, long memoryLimitHits,
        long throttledPeriods, Duration throttledTime, Optional<PressureStall> cpuPressure,
        Optional<PressureStall> memoryPressure, Optional<PressureStall> ioPressure, ProbeKind probe) {

    /** Every figure is required, the optional ones as {@code Optional}s; the counts may be any value. */
    public SnapshotFigures {
        Objects.requireNonNull(takenAt, "takenAt");
        Objects.requireNonNull(memoryUsage, "memoryUsage");
        Objects.requireNonNull(memoryCharged, "memoryCharged");
        Objects.requireNonNull(memoryLimit, "memoryLimit");
        Objects.requireNonNull(pageCache, "pageCache");
        Objects.requireNonNull(anonymousMemory, "anonymousMemory");
        Objects.requireNonNull(swap, "swap");
        Objects.requireNonNull(cpuTime, "cpuTime");
        Objects.requireNonNull(cpuUserTime, "cpuUserTime");
        Objects.requireNonNull(cpuSystemTime, "cpuSystemTime");
        Objects.requireNonNull(blockRead, "blockRead");
        Objects.requireNonNull(blockWrite, "blockWrite");
        Objects.requireNonNull(networkReceived, "networkReceived");
        Objects.requireNonNull(networkSent, "networkSent");
        Objects.requireNonNull(throttledTime, "throttledTime");
        Objects.requireNonNull(cpuPressure, "cpuPressure");
        Objects.requireNonNull(memoryPressure, "memoryPressure");
        Objects.requireNonNull(ioPressure, "ioPressure");
        Objects.requireNonNull(probe, "probe");
    }

    /** {@link Objects#hash} over every figure in order: the hash code the snapshot had before it kept a record. */
    @Override
    public int hashCode() {
        return Objects.hash(takenAt, memoryUsage, memoryCharged, memoryLimit, pageCache, anonymousMemory,
                swap, cpuTime, cpuUserTime, cpuSystemTime, pids, blockRead, blockWrite,
                networkReceived, networkSent, oomKills, memoryLimitHits, throttledPeriods,
                throttledTime, cpuPressure, memoryPressure, ioPressure, probe);
    }

    /**
     * The figures by name, as a record would print them but with the probe second, under {@code typeName}
     * ({@code "ResourceSnapshot[takenAt=…, probe=…, memoryUsage=…, …]"}); absent figures are
     * {@code Optional.empty}.
     */
    public String describe(String typeName) {
        return typeName + "[takenAt=" + takenAt + ", probe=" + probe + ", memoryUsage=" + memoryUsage
                + ", memoryCharged=" + memoryCharged + ", memoryLimit=" + memoryLimit + ", pageCache=" + pageCache
                + ", anonymousMemory=" + anonymousMemory + ", swap=" + swap + ", cpuTime=" + cpuTime
                + ", cpuUserTime=" + cpuUserTime + ", cpuSystemTime=" + cpuSystemTime + ", pids=" + pids
                + ", blockRead=" + blockRead + ", blockWrite=" + blockWrite + ", networkReceived=" + networkReceived
                + ", networkSent=" + networkSent + ", oomKills=" + oomKills + ", memoryLimitHits=" + memoryLimitHits
                + ", throttledPeriods=" + throttledPeriods + ", throttledTime=" + throttledTime + ", cpuPressure="
                + cpuPressure + ", memoryPressure=" + memoryPressure + ", ioPressure=" + ioPressure + "]";
    }
}
