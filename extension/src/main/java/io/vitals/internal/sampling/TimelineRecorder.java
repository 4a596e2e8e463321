package io.vitals.internal.sampling;

import io.vitals.DataSize;
import io.vitals.TimelinePoint;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a stream of readings into timeline points relative to a start reading, in bounded memory: once
 * {@code maxPoints} points are held, neighbours are merged pairwise, each merged point keeping the higher memory,
 * CPU % and PIDs of the two and the later cumulative figures. A peak therefore survives any amount of compaction;
 * only its timing becomes coarser (by the merged bucket's width). Not thread-safe: its owner synchronises.
 */
final class TimelineRecorder {

    private final RawReading start;
    private final int maxPoints;
    private List<TimelinePoint> points = new ArrayList<>();
    private RawReading previous;
    private long samples;

    TimelineRecorder(RawReading start, int maxPoints) {
        if (maxPoints < 2 || maxPoints % 2 != 0) {
            throw new IllegalArgumentException("maxPoints must be an even number of at least 2: " + maxPoints);
        }
        this.start = start;
        this.maxPoints = maxPoints;
        this.previous = start;
        add(start);
    }

    void add(RawReading reading) {
        if (reading.monotonicNanos() < previous.monotonicNanos()) {
            return; // a late sample that raced with a snapshot taken on the test thread
        }
        if (points.size() == maxPoints) {
            compact();
        }
        points.add(pointOf(reading, CpuPercent.between(previous, reading)));
        previous = reading;
        samples++;
    }

    RawReading last() {
        return previous;
    }

    long samples() {
        return samples;
    }

    List<TimelinePoint> points() {
        return List.copyOf(points);
    }

    private TimelinePoint pointOf(RawReading r, double cpuPercent) {
        return new TimelinePoint(Duration.ofNanos(r.monotonicNanos() - start.monotonicNanos()), cpuPercent,
                DataSize.ofBytes(r.memory().workingSetBytes()), r.pids().current(),
                Duration.ofNanos(Math.max(0, r.cpu().totalNanos() - start.cpu().totalNanos())),
                delta(r.blockIo().readBytes(), start.blockIo().readBytes()),
                delta(r.blockIo().writeBytes(), start.blockIo().writeBytes()),
                delta(r.network().receivedBytes(), start.network().receivedBytes()),
                delta(r.network().sentBytes(), start.network().sentBytes()));
    }

    private static DataSize delta(long now, long then) {
        return DataSize.ofBytes(Math.max(0, now - then));
    }

    private void compact() {
        List<TimelinePoint> merged = new ArrayList<>(maxPoints);
        for (int i = 0; i + 1 < points.size(); i += 2) {
            merged.add(merge(points.get(i), points.get(i + 1)));
        }
        if (points.size() % 2 == 1) {
            merged.add(points.get(points.size() - 1));
        }
        points = merged;
    }

    static TimelinePoint merge(TimelinePoint a, TimelinePoint b) {
        boolean memoryPeakInB = b.memory().compareTo(a.memory()) > 0;
        return new TimelinePoint(memoryPeakInB ? b.offset() : a.offset(), Math.max(a.cpuPercent(), b.cpuPercent()),
                memoryPeakInB ? b.memory() : a.memory(), Math.max(a.pids(), b.pids()), b.cpuTime(), b.blockRead(),
                b.blockWrite(), b.networkReceived(), b.networkSent());
    }
}
