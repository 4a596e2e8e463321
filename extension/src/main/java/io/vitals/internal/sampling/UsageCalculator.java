package io.vitals.internal.sampling;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.PeakMemory;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Computes a {@link ResourceUsage} from the readings at both ends of a window and the timeline points between
 * them: counters are differences of the two readings (exact, whatever the sampling interval), peaks the maxima of
 * the points and of both end readings.
 */
final class UsageCalculator {

    private UsageCalculator() {
    }

    record Subject(String container, String image, ProbeKind probe, Duration interval) {
    }

    static ResourceUsage compute(Subject subject, RawReading from, RawReading to, List<TimelinePoint> points,
            long samples, long readErrors, Optional<DataSize> highWaterMark, List<ResourceUsage.Phase> phases) {
        Duration wall = Duration.ofNanos(Math.max(0, to.monotonicNanos() - from.monotonicNanos()));
        long cpuNanos = Math.max(0, to.cpu().totalNanos() - from.cpu().totalNanos());
        ResourceSnapshot before = Snapshots.of(from, subject.probe());
        ResourceSnapshot after = Snapshots.of(to, subject.probe());

        TimelinePoint peakPoint = points.stream().max(Comparator.comparing(TimelinePoint::memory)).orElse(null);
        long fromWorkingSet = from.memory().workingSetBytes();
        long toWorkingSet = to.memory().workingSetBytes();
        DataSize peakMemory = DataSize.ofBytes(Math.max(fromWorkingSet, toWorkingSet));
        Duration peakAt = fromWorkingSet >= toWorkingSet ? Duration.ZERO : wall;
        if (peakPoint != null && peakPoint.memory().compareTo(peakMemory) > 0) {
            peakMemory = peakPoint.memory();
            peakAt = peakPoint.offset();
        }
        PeakMemory peak = new PeakMemory(peakMemory, peakAt, PeakMemory.Method.SAMPLED, subject.interval());
        double peakCpu = points.stream().mapToDouble(TimelinePoint::cpuPercent).max().orElse(0.0);
        long peakPids = Math.max(Math.max(from.pids().current(), to.pids().current()),
                points.stream().mapToLong(TimelinePoint::pids).max().orElse(0));
        double averageCpu = wall.isZero() ? 0.0 : 100.0 * cpuNanos / wall.toNanos();

        return ResourceUsage.builder().container(subject.container()).image(subject.image())
                .probe(subject.probe()).wallTime(wall).before(before).after(after).peak(peak)
                .peakMemoryHighWaterMark(highWaterMark).memoryLimit(Snapshots.size(to.memory().limitBytes()))
                .cpuTime(Duration.ofNanos(cpuNanos))
                .cpuUserTime(Duration.ofNanos(Math.max(0, to.cpu().userNanos() - from.cpu().userNanos())))
                .cpuSystemTime(Duration.ofNanos(Math.max(0, to.cpu().systemNanos() - from.cpu().systemNanos())))
                .averageCpuPercent(Percentage.of(averageCpu)).peakCpuPercent(Percentage.of(peakCpu))
                .throttledPeriods(Math.max(0, to.cpu().throttledPeriods() - from.cpu().throttledPeriods()))
                .throttledTime(Duration.ofNanos(Math.max(0, to.cpu().throttledNanos() - from.cpu().throttledNanos())))
                .blockRead(bytes(to.blockIo().readBytes() - from.blockIo().readBytes()))
                .blockWrite(bytes(to.blockIo().writeBytes() - from.blockIo().writeBytes()))
                .networkReceived(bytes(to.network().receivedBytes() - from.network().receivedBytes()))
                .networkSent(bytes(to.network().sentBytes() - from.network().sentBytes())).peakPids(peakPids)
                .oomKills(Math.max(0, to.memory().oomKills() - from.memory().oomKills()))
                .memoryLimitHits(Math.max(0, to.memory().limitHits() - from.memory().limitHits()))
                .pressureStallCpu(pressure(from, to, Kind.CPU)).pressureStallMemory(pressure(from, to, Kind.MEMORY))
                .pressureStallIo(pressure(from, to, Kind.IO))
                .timeline(new Timeline(points, subject.interval(), samples, readErrors)).phases(phases).build();
    }

    private enum Kind { CPU, MEMORY, IO }

    private static Optional<PressureStall> pressure(RawReading from, RawReading to, Kind kind) {
        if (from.pressure().isEmpty() || to.pressure().isEmpty()) {
            return Optional.empty();
        }
        PressureTotals a = from.pressure().get();
        PressureTotals b = to.pressure().get();
        return Optional.of(switch (kind) {
            case CPU -> Snapshots.stall(b.cpuSomeMicros() - a.cpuSomeMicros(), b.cpuFullMicros() - a.cpuFullMicros());
            case MEMORY -> Snapshots.stall(b.memorySomeMicros() - a.memorySomeMicros(),
                    b.memoryFullMicros() - a.memoryFullMicros());
            case IO -> Snapshots.stall(b.ioSomeMicros() - a.ioSomeMicros(), b.ioFullMicros() - a.ioFullMicros());
        });
    }

    private static DataSize bytes(long delta) {
        return DataSize.ofBytes(Math.max(0, delta));
    }
}
