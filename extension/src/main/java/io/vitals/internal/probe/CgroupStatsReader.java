package io.vitals.internal.probe;

import java.io.IOException;
import java.time.Clock;

/** Reads one container's cgroup files for one cgroup version. Network figures come from elsewhere (net/dev). */
interface CgroupStatsReader extends AutoCloseable {

    /**
     * Reads every file once. {@code networkReceived}/{@code networkSent} are passed in because they live in the
     * container's network namespace, not in its cgroup.
     */
    RawReading read(Clock wallClock, long networkReceived, long networkSent) throws IOException;

    boolean resetHighWaterMark() throws IOException;

    /** Whether the cgroup still exists; a reader of a removed cgroup reports the container gone. */
    boolean exists();

    @Override
    void close();

    static CgroupStatsReader forLayout(CgroupLayout layout) {
        return layout.unifiedOnly() ? new CgroupV2StatsReader(layout.unifiedDir().orElseThrow())
                : new CgroupV1StatsReader(layout);
    }
}
