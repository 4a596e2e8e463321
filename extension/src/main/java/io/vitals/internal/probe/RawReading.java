package io.vitals.internal.probe;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One reading of a container's counters and gauges, in raw units (bytes, nanoseconds), as a probe found them.
 *
 * <p>Kept as primitives because the sampler makes one of these per container every few milliseconds; the public,
 * typed view is {@link io.vitals.ResourceSnapshot}. Values a probe cannot obtain are empty optionals, never zero,
 * so that "not measured" is never mistaken for "measured as nothing".
 *
 * @param monotonicNanos {@link System#nanoTime()} when the reading was taken; only differences are meaningful
 * @param wallTime wall-clock time of the reading, for reports
 * @param cpuTotalNanos cumulative CPU time of all tasks in the container
 * @param cpuUserNanos cumulative user CPU time (may be coarser than the total: cgroup v1 counts it in ticks)
 * @param cpuSystemNanos cumulative system CPU time
 * @param systemCpuNanos host CPU time (docker's {@code system_cpu_usage}), only from the Engine API
 * @param onlineCpus CPUs of the host as docker counts them
 * @param memoryChargedBytes memory charged to the cgroup, page cache included (v1 usage_in_bytes, v2 memory.current)
 * @param inactiveFileBytes inactive file cache, which docker subtracts to get MEM USAGE
 * @param pageCacheBytes page cache (v1 total_cache, v2 file)
 * @param anonymousBytes anonymous memory (v1 total_rss, v2 anon)
 * @param swapBytes swap in use, where the host accounts it
 * @param memoryLimitBytes the hard limit, empty when unlimited
 * @param highWaterMarkBytes the kernel's high-water mark of charged memory since its last reset
 * @param limitHits times usage hit the limit (v1 memory.failcnt, v2 memory.events max)
 * @param oomKills processes killed by the OOM killer in the cgroup
 * @param pids tasks in the container
 * @param pidsLimit the limit on tasks, empty when unlimited
 * @param blockReadBytes cumulative bytes read from block devices
 * @param blockWriteBytes cumulative bytes written to block devices
 * @param networkReceivedBytes cumulative bytes received on the container's interfaces (loopback excluded)
 * @param networkSentBytes cumulative bytes sent
 * @param cpuPeriods CFS enforcement periods elapsed
 * @param throttledPeriods periods in which the container was throttled
 * @param throttledNanos total time throttled
 * @param pressure pressure-stall totals, where the host exposes them
 */
public record RawReading(
        long monotonicNanos,
        Instant wallTime,
        long cpuTotalNanos,
        long cpuUserNanos,
        long cpuSystemNanos,
        OptionalLong systemCpuNanos,
        int onlineCpus,
        long memoryChargedBytes,
        long inactiveFileBytes,
        long pageCacheBytes,
        long anonymousBytes,
        OptionalLong swapBytes,
        OptionalLong memoryLimitBytes,
        OptionalLong highWaterMarkBytes,
        long limitHits,
        long oomKills,
        long pids,
        OptionalLong pidsLimit,
        long blockReadBytes,
        long blockWriteBytes,
        long networkReceivedBytes,
        long networkSentBytes,
        long cpuPeriods,
        long throttledPeriods,
        long throttledNanos,
        Optional<PressureTotals> pressure) {

    /**
     * Memory in use as {@code docker stats} shows it ("MEM USAGE"): charged memory minus the inactive file cache,
     * the rule of the docker CLI since 20.10 and of cAdvisor's working set.
     */
    public long workingSetBytes() {
        return inactiveFileBytes < memoryChargedBytes ? memoryChargedBytes - inactiveFileBytes : memoryChargedBytes;
    }

    /**
     * This reading with the counters a fast (tiered) read refreshes replaced, and every other figure carried over:
     * the sampler reads the fast counters every tick and the full set only every few ticks and at the edges of a
     * window, where the differences that make a report's counters are taken.
     */
    public RawReading withFastCounters(long monotonicNanos, Instant wallTime, long cpuTotalNanos, long cpuUserNanos,
            long cpuSystemNanos, long memoryChargedBytes, OptionalLong highWaterMarkBytes, long pids, long oomKills,
            long limitHits) {
        return new RawReading(monotonicNanos, wallTime, cpuTotalNanos, cpuUserNanos, cpuSystemNanos, systemCpuNanos,
                onlineCpus, memoryChargedBytes, inactiveFileBytes, pageCacheBytes, anonymousBytes, swapBytes,
                memoryLimitBytes, highWaterMarkBytes, limitHits, oomKills, pids, pidsLimit, blockReadBytes,
                blockWriteBytes, networkReceivedBytes, networkSentBytes, cpuPeriods, throttledPeriods, throttledNanos,
                pressure);
    }
}
