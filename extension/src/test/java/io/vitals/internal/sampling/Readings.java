package io.vitals.internal.sampling;

import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.probe.BlockIoReading;
import io.vitals.internal.probe.CpuReading;
import io.vitals.internal.probe.MemoryReading;
import io.vitals.internal.probe.NetworkReading;
import io.vitals.internal.probe.PidsReading;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/** A builder of scripted {@link RawReading}s for sampling tests; every figure defaults to zero or empty. */
final class Readings {

    static final long MIB = 1024L * 1024L;

    long monotonicNanos;
    long cpuTotalNanos;
    long cpuUserNanos;
    long cpuSystemNanos;
    OptionalLong systemCpuNanos = OptionalLong.empty();
    int onlineCpus = 8;
    long memoryChargedBytes;
    long inactiveFileBytes;
    OptionalLong memoryLimitBytes = OptionalLong.empty();
    OptionalLong highWaterMarkBytes = OptionalLong.empty();
    long limitHits;
    long oomKills;
    long pids;
    long blockReadBytes;
    long blockWriteBytes;
    long networkReceivedBytes;
    long networkSentBytes;
    long throttledPeriods;
    long throttledNanos;
    Optional<PressureTotals> pressure = Optional.empty();
    SourcedFigures sourced = SourcedFigures.absent("not in this fixture");

    static Readings at(long monotonicNanos) {
        Readings r = new Readings();
        r.monotonicNanos = monotonicNanos;
        return r;
    }

    static Readings atMillis(long millis) {
        return at(millis * 1_000_000L);
    }

    Readings cpu(long nanos) {
        cpuTotalNanos = nanos;
        cpuUserNanos = nanos * 3 / 4;
        cpuSystemNanos = nanos - cpuUserNanos;
        return this;
    }

    Readings systemCpu(long nanos) {
        systemCpuNanos = OptionalLong.of(nanos);
        return this;
    }

    Readings cpus(int n) {
        onlineCpus = n;
        return this;
    }

    /** Working set of {@code bytes}: charged memory with no inactive file cache. */
    Readings memory(long bytes) {
        memoryChargedBytes = bytes;
        inactiveFileBytes = 0;
        return this;
    }

    Readings memoryMiB(long mib) {
        return memory(mib * MIB);
    }

    Readings charged(long charged, long inactiveFile) {
        memoryChargedBytes = charged;
        inactiveFileBytes = inactiveFile;
        return this;
    }

    Readings highWaterMark(long bytes) {
        highWaterMarkBytes = OptionalLong.of(bytes);
        return this;
    }

    Readings limit(long bytes) {
        memoryLimitBytes = OptionalLong.of(bytes);
        return this;
    }

    Readings pids(long n) {
        pids = n;
        return this;
    }

    Readings io(long read, long write) {
        blockReadBytes = read;
        blockWriteBytes = write;
        return this;
    }

    Readings net(long received, long sent) {
        networkReceivedBytes = received;
        networkSentBytes = sent;
        return this;
    }

    Readings oom(long kills, long hits) {
        oomKills = kills;
        limitHits = hits;
        return this;
    }

    Readings throttled(long periods, long nanos) {
        throttledPeriods = periods;
        throttledNanos = nanos;
        return this;
    }

    /** The sourced figures (major page faults, the peak's composition); absent unless given. */
    Readings sourced(SourcedFigures figures) {
        sourced = figures;
        return this;
    }

    Readings pressure(PressureTotals totals) {
        pressure = Optional.of(totals);
        return this;
    }

    RawReading build() {
        return RawReading.builder()
                .at(monotonicNanos, Instant.EPOCH.plusNanos(monotonicNanos))
                .cpu(CpuReading.builder().usage(cpuTotalNanos, cpuUserNanos, cpuSystemNanos)
                        .hostNanos(systemCpuNanos).onlineCpus(onlineCpus).throttling(0, throttledPeriods, throttledNanos)
                        .build())
                .memory(MemoryReading.builder().charged(memoryChargedBytes).inactiveFile(inactiveFileBytes)
                        .limit(memoryLimitBytes).highWaterMark(highWaterMarkBytes).limitHits(limitHits)
                        .oomKills(oomKills).build())
                .pids(new PidsReading(pids, OptionalLong.empty()))
                .blockIo(new BlockIoReading(blockReadBytes, blockWriteBytes))
                .network(new NetworkReading(networkReceivedBytes, networkSentBytes))
                .pressure(pressure)
                .sourced(sourced)
                .build();
    }
}
