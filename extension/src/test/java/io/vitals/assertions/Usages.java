package io.vitals.assertions;

import io.vitals.DataSize;
import io.vitals.PeakMemory;
import io.vitals.Percentage;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.testing.UsageFixtures;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Usages with round, hand-checkable figures for the assertion tests: container {@code tf} on host cgroup v1 files,
 * sampled every 50 ms, peak 1.7 GiB (1740.8 MiB) at 12.4 s under a 2 GiB limit, 30 s of CPU over 20 s (150%),
 * 120 ms throttled, 3 MB read, 1 MB written, 20 kB received, 3 kB sent, 40 PIDs, memory growing by 10 MiB/min, no
 * OOM kill, and phases {@code load}, {@code train} (peak 1.2 GiB) and {@code evaluate}.
 */
final class Usages {

    static final Instant START = Instant.parse("2026-03-01T10:15:30Z");
    static final Duration INTERVAL = Duration.ofMillis(50);

    private String container = "tf";
    private ProbeKind probe = ProbeKind.HOST_CGROUP_V1;
    private DataSize peak = DataSize.ofMiB(1740.8);
    private Duration peakAt = Duration.ofMillis(12_400);
    private Optional<DataSize> highWaterMark = Optional.empty();
    private Optional<DataSize> memoryLimit = Optional.of(DataSize.ofGiB(2));
    private Duration cpuTime = Duration.ofSeconds(30);
    private Percentage averageCpu = Percentage.of(150);
    private Duration throttledTime = Duration.ofMillis(120);
    private DataSize blockRead = DataSize.ofBytes(3_000_000);
    private DataSize blockWrite = DataSize.ofBytes(1_000_000);
    private DataSize networkReceived = DataSize.ofBytes(20_000);
    private DataSize networkSent = DataSize.ofBytes(3_000);
    private long peakPids = 40;
    private long oomKills;
    private boolean phases = true;

    private Usages() {
    }

    /** The usage described in the class comment. */
    static ResourceUsage usage() {
        return usages().build();
    }

    static Usages usages() {
        return new Usages();
    }

    Usages container(String name) {
        this.container = name;
        return this;
    }

    Usages peak(DataSize value) {
        this.peak = value;
        return this;
    }

    Usages highWaterMark(DataSize value) {
        this.highWaterMark = Optional.of(value);
        return this;
    }

    Usages memoryLimit(Optional<DataSize> value) {
        this.memoryLimit = value;
        return this;
    }

    Usages oomKills(long value) {
        this.oomKills = value;
        return this;
    }

    Usages probe(ProbeKind value) {
        this.probe = value;
        return this;
    }

    Usages blockIo(DataSize read, DataSize write) {
        this.blockRead = read;
        this.blockWrite = write;
        return this;
    }

    Usages throttled(Duration value) {
        this.throttledTime = value;
        return this;
    }

    Usages noPhases() {
        this.phases = false;
        return this;
    }

    ResourceUsage build() {
        List<TimelinePoint> points = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // 1 MiB every 6 s: 10 MiB/min.
            points.add(new TimelinePoint(Duration.ofSeconds(6L * i), 150, DataSize.ofMiB(1024 + i), peakPids,
                    cpuTime.dividedBy(4).multipliedBy(i), blockRead, blockWrite, networkReceived, networkSent));
        }
        List<ResourceUsage.Phase> marked = new ArrayList<>();
        if (phases) {
            ResourceUsage train = usages().noPhases().peak(DataSize.ofMiB(1228.8)).build();
            marked.add(new ResourceUsage.Phase("load", Duration.ZERO, usages().noPhases().build()));
            marked.add(new ResourceUsage.Phase("train", Duration.ofSeconds(2), train));
            marked.add(new ResourceUsage.Phase("evaluate", Duration.ofSeconds(16), usages().noPhases().build()));
        }
        Duration wall = Duration.ofSeconds(20);
        return UsageFixtures.usage().container(container).image("tensorflow/tensorflow:2.16.1").probe(probe)
                .wallTime(wall).before(snapshot(START, DataSize.ofMiB(1024), Duration.ZERO, 0))
                .after(snapshot(START.plus(wall), DataSize.ofMiB(1027), cpuTime, oomKills))
                .peak(new PeakMemory(peak, peakAt, PeakMemory.Method.SAMPLED, INTERVAL))
                .peakMemoryHighWaterMark(highWaterMark).memoryLimit(memoryLimit).cpuTime(cpuTime)
                .cpuUserTime(cpuTime.multipliedBy(4).dividedBy(5)).cpuSystemTime(cpuTime.dividedBy(5))
                .averageCpuPercent(averageCpu).peakCpuPercent(Percentage.of(190)).throttledPeriods(7)
                .throttledTime(throttledTime).blockRead(blockRead).blockWrite(blockWrite)
                .networkReceived(networkReceived).networkSent(networkSent).peakPids(peakPids).oomKills(oomKills)
                .memoryLimitHits(oomKills).timeline(new Timeline(points, INTERVAL, 400, 0)).phases(marked).build();
    }

    private ResourceSnapshot snapshot(Instant at, DataSize memory, Duration cpu, long kills) {
        return UsageFixtures.snapshot().takenAt(at).probe(probe).memoryUsage(memory).memoryCharged(memory)
                .memoryLimit(memoryLimit).anonymousMemory(memory).cpuTime(cpu)
                .cpuUserTime(cpu.multipliedBy(4).dividedBy(5)).cpuSystemTime(cpu.dividedBy(5)).pids(peakPids)
                .oomKills(kills).memoryLimitHits(kills).build();
    }
}
