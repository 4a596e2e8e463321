package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;

import org.apiguardian.api.API;

/**
 * One point of a test's timeline. When a long test's timeline is compacted, a point stands for several samples
 * and keeps their extremes (highest memory, CPU % and PIDs), so a peak is never averaged away; cumulative figures
 * are those of the last sample it covers.
 *
 * @param offset time since the test started (monotonic clock)
 * @param cpuPercent CPU use since the previous point, 100 % being one core
 * @param memory MEM USAGE as docker stats shows it (charged memory minus inactive file cache)
 * @param pids tasks in the container
 * @param cpuTime CPU time used since the test started
 * @param blockRead bytes read from block devices since the test started
 * @param blockWrite bytes written to block devices since the test started
 * @param networkReceived bytes received since the test started
 * @param networkSent bytes sent since the test started
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TimelinePoint(
        Duration offset,
        double cpuPercent,
        DataSize memory,
        long pids,
        Duration cpuTime,
        DataSize blockRead,
        DataSize blockWrite,
        DataSize networkReceived,
        DataSize networkSent) {
}
