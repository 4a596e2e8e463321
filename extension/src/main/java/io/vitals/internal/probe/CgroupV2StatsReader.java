package io.vitals.internal.probe;

import io.vitals.internal.probe.cgroupfs.CgroupFile;
import io.vitals.internal.probe.cgroupfs.CgroupFiles;
import io.vitals.internal.probe.cgroupfs.KeyedFile;
import io.vitals.internal.probe.cgroupfs.MarkFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * cgroup v2 files. Times are in microseconds. The high-water mark is {@code memory.peak}; since Linux 6.12 a
 * write to it resets the mark <em>for that open file only</em>, so this reader keeps one file open per container
 * and reads the peak back through it. On older kernels (and for users who may not write the file) the write fails
 * and the peak covers the cgroup's lifetime: it is still reported, because for a container started by the test
 * its lifetime is the test; {@link #resetHighWaterMark()} returning false tells the caller it is not per window.
 */
final class CgroupV2StatsReader extends CgroupFilesReader {

    /** The base figures' keys first, then those of the sourced figures ({@link SourcedCgroupValues}). */
    private static final List<String> MEMORY_STAT_KEYS = SourcedCgroupValues.statKeys(false, "inactive_file", "file",
            "anon");
    private static final CgroupFiles.Keys MEMORY_EVENTS = new CgroupFiles.Keys("max", "oom_kill");
    private static final CgroupFiles.Keys CPU_STAT = new CgroupFiles.Keys("usage_usec", "user_usec", "system_usec",
            "nr_periods", "nr_throttled", "throttled_usec");

    private final Path dir;
    private final Optional<CgroupFile> max;
    private final KeyedFile events;
    private final KeyedFile cpuStat;
    private final Optional<CgroupFile> ioStat;
    private final Optional<CgroupFile> swap;

    private CgroupV2StatsReader(Path dir, OpenFiles files) throws IOException {
        super(files, false, dir, "memory.current", MEMORY_STAT_KEYS, MarkFile.memoryPeak(dir), Optional.of(dir),
                Optional.of(dir));
        this.dir = dir;
        this.max = files.optional(dir.resolve("memory.max"));
        this.events = new KeyedFile(files.optional(dir.resolve("memory.events")), MEMORY_EVENTS);
        this.cpuStat = new KeyedFile(files.optional(dir.resolve("cpu.stat")), CPU_STAT);
        this.ioStat = files.optional(dir.resolve("io.stat"));
        this.swap = files.optional(dir.resolve("memory.swap.current"));
    }

    static CgroupV2StatsReader open(Path dir) throws IOException {
        return open(files -> new CgroupV2StatsReader(dir, files));
    }

    @Override
    MemoryReading readMemory() throws IOException {
        long chargedBytes = charged.readRequired();
        OptionalLong limit = limitValue(max);
        events.read();
        return memory(chargedBytes)
                .swap(optionalValue(swap))
                .limit(limit)
                .highWaterMark(readPeak())
                .limitHits(events.orZero(0))
                .oomKills(events.orZero(1))
                .build();
    }

    /** cpu.stat counts in microseconds. */
    @Override
    CpuReading readCpu() throws IOException {
        cpuStat.read();
        return CpuReading.builder()
                .usage(cpuStat.orZero(0) * 1000, cpuStat.orZero(1) * 1000, cpuStat.orZero(2) * 1000)
                .onlineCpus(onlineCpus)
                .throttling(cpuStat.orZero(3), cpuStat.orZero(4), cpuStat.orZero(5) * 1000)
                .build();
    }

    @Override
    BlockIoReading readBlockIo() throws IOException {
        return blockIo(ioStat, CgroupFiles::parseIoStatV2);
    }

    @Override
    public synchronized RawReading readFast(Clock wallClock, RawReading last) throws IOException {
        long now = System.nanoTime();
        cpuStat.read();
        if (cpuStat.value(0) != CgroupFiles.ABSENT && cpuStat.value(0) * 1000 == last.cpu().totalNanos()) {
            return last.withFastCounters(now, wallClock.instant(), last.cpu(), last.memory(), last.pids());
        }
        CpuReading cpuReading = last.cpu().withUsage(cpuStat.orZero(0) * 1000, cpuStat.orZero(1) * 1000,
                cpuStat.orZero(2) * 1000);
        long chargedBytes = charged.readRequired();
        events.read();
        // the peak counts only at a window's end, which is a full read; a tick saves the file
        MemoryReading memory = last.memory().withFastCounters(chargedBytes, events.orZero(0), events.orZero(1));
        return last.withFastCounters(now, wallClock.instant(), cpuReading, memory,
                last.pids().withCurrent(pidsCurrent(0)));
    }

    private OptionalLong readPeak() throws IOException {
        if (!mark.isOpen()) {
            // the cgroup's lifetime mark (6.1, or no write access); absent before Linux 5.19
            return CgroupFiles.readOptionalLong(mark.path());
        }
        return CgroupFiles.optional(mark.readValue());
    }
}
