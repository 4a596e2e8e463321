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

/**
 * cgroup v1 (and hybrid) files. Memory figures use the hierarchical {@code total_*} keys of memory.stat, as docker
 * and cAdvisor do; user/system CPU time comes in USER_HZ ticks (100 per second on Linux), so it is only accurate to
 * 10 ms, while {@code cpuacct.usage} is exact to the nanosecond.
 */
final class CgroupV1StatsReader extends CgroupFilesReader {

    /** USER_HZ: the kernel exports cpuacct.stat in ticks of 1/100 s on every architecture docker supports. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    /** The base figures' keys first, then those of the sourced figures ({@link SourcedCgroupValues}). */
    private static final List<String> MEMORY_STAT_KEYS = SourcedCgroupValues.statKeys(true, "total_inactive_file",
            "total_cache", "total_rss", "total_swap");
    private static final CgroupFiles.Keys OOM_CONTROL = new CgroupFiles.Keys("oom_kill");
    private static final CgroupFiles.Keys CPUACCT_STAT = new CgroupFiles.Keys("user", "system");
    private static final CgroupFiles.Keys CPU_STAT = new CgroupFiles.Keys("nr_periods", "nr_throttled",
            "throttled_time");

    private final Path memory;
    private final Optional<CgroupFile> limit;
    private final Optional<CgroupFile> maxUsage;
    private final Optional<CgroupFile> failcnt;
    private final Optional<CgroupFile> memswFailcnt;
    private final KeyedFile oomControl;
    private final Optional<CgroupFile> cpuacctUsage;
    private final KeyedFile cpuacctStat;
    private final KeyedFile cpuStat;
    private final Optional<CgroupFile> blkioRecursive;
    private final Optional<CgroupFile> blkioThrottle;

    private CgroupV1StatsReader(CgroupLayout layout, Path memory, OpenFiles files) throws IOException {
        super(files, true, memory, "memory.usage_in_bytes", MEMORY_STAT_KEYS, MarkFile.maxUsageInBytes(memory),
                layout.controller("pids"), layout.unifiedDir());
        this.memory = memory;
        Optional<Path> cpu = layout.controller("cpu");
        Optional<Path> cpuacct = layout.controller("cpuacct").or(() -> cpu);
        Optional<Path> blkio = layout.controller("blkio");
        this.limit = files.optional(memory.resolve("memory.limit_in_bytes"));
        this.maxUsage = files.optional(mark.path());
        this.failcnt = files.optional(memory.resolve("memory.failcnt"));
        this.memswFailcnt = files.optional(memory.resolve("memory.memsw.failcnt"));
        this.oomControl = new KeyedFile(files.optional(memory.resolve("memory.oom_control")), OOM_CONTROL);
        this.cpuacctUsage = cpuacct.isPresent()
                ? Optional.of(files.required(cpuacct.get().resolve("cpuacct.usage"))) : Optional.empty();
        this.cpuacctStat = new KeyedFile(files.optional(cpuacct, "cpuacct.stat"), CPUACCT_STAT);
        this.cpuStat = new KeyedFile(files.optional(cpu, "cpu.stat"), CPU_STAT);
        this.blkioRecursive = files.optional(blkio, "blkio.io_service_bytes_recursive");
        this.blkioThrottle = files.optional(blkio, "blkio.throttle.io_service_bytes");
    }

    static CgroupV1StatsReader open(CgroupLayout layout) throws IOException {
        Path memory = layout.controller("memory").orElseThrow();
        return open(files -> new CgroupV1StatsReader(layout, memory, files));
    }

    @Override
    MemoryReading readMemory() throws IOException {
        return memory(charged.readRequired())
                .swap(CgroupFiles.optional(stat[3]))
                .limit(limitValue(limit))
                .highWaterMark(optionalValue(maxUsage))
                // With a swap limit equal to the memory limit, the memory+swap counter is the one that hits its
                // limit first, and only memory.memsw.failcnt counts it; take whichever counted more.
                .limitHits(Math.max(value(failcnt, 0), value(memswFailcnt, 0)))
                .oomKills(oomKills(0))
                .build();
    }

    @Override
    CpuReading readCpu() throws IOException {
        long total = cpuacctUsage.isPresent() ? cpuacctUsage.get().readRequired() : 0;
        cpuacctStat.read();
        cpuStat.read();
        return CpuReading.builder()
                .usage(total, cpuacctStat.orZero(0) * NANOS_PER_TICK, cpuacctStat.orZero(1) * NANOS_PER_TICK)
                .onlineCpus(onlineCpus)
                .throttling(cpuStat.orZero(0), cpuStat.orZero(1), cpuStat.orZero(2))
                .build();
    }

    @Override
    public synchronized RawReading readFast(Clock wallClock, RawReading last) throws IOException {
        long now = System.nanoTime();
        CpuReading cpu = last.cpu();
        if (cpuacctUsage.isPresent()) {
            // user/system time come in 10 ms ticks from cpuacct.stat, too coarse to be worth a read per tick
            long total = cpuacctUsage.get().readRequired();
            if (total == cpu.totalNanos()) {
                return last.withFastCounters(now, wallClock.instant(), cpu, last.memory(), last.pids());
            }
            cpu = cpu.withUsage(total, cpu.userNanos(), cpu.systemNanos());
        }
        MemoryReading memory = last.memory();
        // the high-water mark counts only at a window's end, which is a full read; a tick saves the file
        memory = memory.withFastCounters(charged.readRequired(), memory.limitHits(), oomKills(memory.oomKills()));
        return last.withFastCounters(now, wallClock.instant(), cpu, memory,
                last.pids().withCurrent(pidsCurrent(last.pids().current())));
    }

    private long oomKills(long otherwise) throws IOException {
        if (!oomControl.isPresent()) {
            return otherwise;
        }
        oomControl.read();
        return oomControl.orZero(0);
    }

    /** containerd reads the *_recursive CFQ/BFQ file when it has lines, else the throttle file; so do we. */
    @Override
    BlockIoReading readBlockIo() throws IOException {
        if (blkioRecursive.isPresent()) {
            CgroupFile file = blkioRecursive.get();
            file.read();
            if (CgroupFiles.hasDeviceLines(file.bytes(), file.length()) || blkioThrottle.isEmpty()) {
                CgroupFiles.parseBlkioV1(file.bytes(), file.length(), io, file.path());
                return new BlockIoReading(io[0], io[1]);
            }
        }
        return blockIo(blkioThrottle, CgroupFiles::parseBlkioV1);
    }
}
