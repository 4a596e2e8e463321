package io.vitals.testing;

import io.vitals.DataSize;
import io.vitals.PeakMemory;
import io.vitals.Percentage;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.ResourceUsageBuilder;
import io.vitals.Timeline;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The one place where tests get a complete {@link ResourceUsage} or {@link ResourceSnapshot} builder: every figure
 * set to a neutral value (zero counters, no limit, nothing sampled, taken at the epoch on cgroup v2 files), so that
 * a test sets only the figures it is about. A figure added to either type gets its neutral value here, and no test
 * that does not use it changes.
 */
public final class UsageFixtures {

    private static final Duration INTERVAL = Duration.ofMillis(50);

    private UsageFixtures() {
    }

    /** A snapshot with every figure zero or absent. */
    public static ResourceSnapshot.Builder snapshot() {
        return ResourceSnapshot.builder().takenAt(Instant.EPOCH).probe(ProbeKind.HOST_CGROUP_V2)
                .memoryUsage(DataSize.ZERO).memoryCharged(DataSize.ZERO).pageCache(DataSize.ZERO)
                .anonymousMemory(DataSize.ZERO).cpuTime(Duration.ZERO).cpuUserTime(Duration.ZERO)
                .cpuSystemTime(Duration.ZERO).pids(0).blockRead(DataSize.ZERO).blockWrite(DataSize.ZERO)
                .networkReceived(DataSize.ZERO).networkSent(DataSize.ZERO).oomKills(0).memoryLimitHits(0)
                .throttledPeriods(0).throttledTime(Duration.ZERO);
    }

    /**
     * A usage of container {@code c} (image {@code img}) with every figure zero or absent, neutral snapshots at both
     * ends, an empty timeline sampled every 50 ms, no phase and no GPU measured.
     */
    public static ResourceUsageBuilder usage() {
        ResourceSnapshot snapshot = snapshot().build();
        return ResourceUsage.builder().container("c").image("img").probe(ProbeKind.HOST_CGROUP_V2)
                .wallTime(Duration.ZERO).before(snapshot).after(snapshot)
                .peak(new PeakMemory(DataSize.ZERO, Duration.ZERO, PeakMemory.Method.SAMPLED, INTERVAL))
                .cpuTime(Duration.ZERO).cpuUserTime(Duration.ZERO).cpuSystemTime(Duration.ZERO)
                .averageCpuPercent(Percentage.of(0)).peakCpuPercent(Percentage.of(0)).throttledPeriods(0)
                .throttledTime(Duration.ZERO).blockRead(DataSize.ZERO).blockWrite(DataSize.ZERO)
                .networkReceived(DataSize.ZERO).networkSent(DataSize.ZERO).peakPids(0).oomKills(0)
                .memoryLimitHits(0).timeline(new Timeline(List.of(), INTERVAL, 0, 0));
    }
}
