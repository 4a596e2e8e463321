package io.vitals.internal.probe;

import java.io.IOException;
import java.time.Clock;

/**
 * Reads one container's cgroup files for one cgroup version, through descriptors opened once (see
 * {@link CgroupFile}). Network figures come from elsewhere (net/dev). Called from the sampler thread and, for
 * snapshots, from the test thread: implementations synchronise, since they reuse their buffers.
 */
interface CgroupStatsReader extends AutoCloseable {

    /**
     * Reads every file once. {@code network} is passed in because it lives in the container's network namespace,
     * not in its cgroup.
     */
    RawReading read(Clock wallClock, NetworkReading network) throws IOException;

    /**
     * Reads only the counters that move fastest and cost least (charged memory, the high-water mark, CPU time,
     * PIDs, OOM kills) and carries every other figure over from {@code last}, a full reading of this reader.
     */
    RawReading readFast(Clock wallClock, RawReading last) throws IOException;

    boolean resetHighWaterMark() throws IOException;

    /** Whether the cgroup still exists; a reader of a removed cgroup reports the container gone. */
    boolean exists();

    /** Closes every descriptor; later reads fail. */
    @Override
    void close();

    static CgroupStatsReader forLayout(CgroupLayout layout) throws IOException {
        return layout.unifiedOnly() ? CgroupV2StatsReader.open(layout.unifiedDir().orElseThrow())
                : CgroupV1StatsReader.open(layout);
    }
}
