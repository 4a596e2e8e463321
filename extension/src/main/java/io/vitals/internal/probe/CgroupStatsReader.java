package io.vitals.internal.probe;

import io.vitals.internal.probe.cgroupfs.CgroupFile;

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
     * Reads only the counters that move fastest and cost least (CPU time, charged memory, PIDs, OOM kills) and
     * carries every other figure over from {@code last}, the previous reading of this reader (full or fast).
     *
     * <p>CPU time is read first. When it has not moved since {@code last}, no task of the container ran, and
     * nothing the tick reads can have risen: a charge, a fork, an exit, a limit hit and an OOM kill all happen in
     * the container's own tasks. The tick then carries {@code last}'s figures over and costs one file instead of
     * four (most containers of a suite are idle most of the time). Two things can move without the container
     * running, and show at the next tick in which it runs or the next full read (every second, and at every
     * window's edge), whichever comes first: charged memory can fall (reclaim, the kernel's per-CPU charge
     * caches draining), and on cgroup v2 data received on the container's sockets is charged from the network
     * interrupt. So a sampled peak loses nothing; a fall of an idle container's memory shows up to a second late.
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
