package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * A container's figures at one moment: gauges (memory, PIDs) as they were, counters (CPU time, bytes, OOM kills)
 * as totals since the container started. {@link ResourceUsage} holds the differences over a test.
 *
 * @param takenAt wall-clock time of the reading
 * @param memoryUsage MEM USAGE as docker stats shows it: charged memory minus inactive file cache
 * @param memoryCharged all memory charged to the container, page cache included
 * @param memoryLimit the hard limit, empty when the container has none
 * @param pageCache file-backed memory (page cache)
 * @param anonymousMemory anonymous memory (heap, stacks, tensors)
 * @param swap swap in use, where the host accounts it
 * @param cpuTime total CPU time
 * @param cpuUserTime CPU time in user mode (cgroup v1 counts it in 10 ms ticks)
 * @param cpuSystemTime CPU time in kernel mode
 * @param pids tasks (threads) in the container
 * @param blockRead bytes read from block devices
 * @param blockWrite bytes written to block devices
 * @param networkReceived bytes received
 * @param networkSent bytes sent
 * @param oomKills processes killed by the OOM killer
 * @param memoryLimitHits times memory use hit the limit
 * @param throttledPeriods CFS periods in which the container was throttled
 * @param throttledTime total time throttled
 * @param cpuPressure CPU pressure-stall totals, where the host exposes them
 * @param memoryPressure memory pressure-stall totals
 * @param ioPressure I/O pressure-stall totals
 * @param probe where the figures came from
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ResourceSnapshot(
        Instant takenAt,
        DataSize memoryUsage,
        DataSize memoryCharged,
        Optional<DataSize> memoryLimit,
        DataSize pageCache,
        DataSize anonymousMemory,
        Optional<DataSize> swap,
        Duration cpuTime,
        Duration cpuUserTime,
        Duration cpuSystemTime,
        long pids,
        DataSize blockRead,
        DataSize blockWrite,
        DataSize networkReceived,
        DataSize networkSent,
        long oomKills,
        long memoryLimitHits,
        long throttledPeriods,
        Duration throttledTime,
        Optional<PressureStall> cpuPressure,
        Optional<PressureStall> memoryPressure,
        Optional<PressureStall> ioPressure,
        ProbeKind probe) {

    /** MEM % as docker stats computes it: usage over limit; empty without a limit. */
    public Optional<Percentage> memoryPercent() {
        return memoryLimit.filter(limit -> limit.toBytes() > 0)
                .map(limit -> Percentage.of(100.0 * memoryUsage.toBytes() / limit.toBytes()));
    }
}
