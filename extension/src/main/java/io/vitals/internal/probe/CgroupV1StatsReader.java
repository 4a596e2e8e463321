package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * cgroup v1 (and hybrid) files. Memory figures use the hierarchical {@code total_*} keys of memory.stat, as docker
 * and cAdvisor do; user/system CPU time comes in USER_HZ ticks (100 per second on Linux), so it is only accurate to
 * 10 ms, while {@code cpuacct.usage} is exact to the nanosecond.
 */
final class CgroupV1StatsReader implements CgroupStatsReader {

    /** USER_HZ: the kernel exports cpuacct.stat in ticks of 1/100 s on every architecture docker supports. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final Path memory;
    private final Optional<Path> cpu;
    private final Optional<Path> cpuacct;
    private final Optional<Path> blkio;
    private final Optional<Path> pids;
    private final Optional<Path> pressure;

    CgroupV1StatsReader(CgroupLayout layout) {
        this.memory = layout.controller("memory").orElseThrow();
        this.cpu = layout.controller("cpu");
        this.cpuacct = layout.controller("cpuacct").or(() -> cpu);
        this.blkio = layout.controller("blkio");
        this.pids = layout.controller("pids");
        this.pressure = layout.unifiedDir();
    }

    @Override
    public RawReading read(Clock wallClock, long networkReceived, long networkSent) throws IOException {
        long now = System.nanoTime();
        Map<String, Long> stat = CgroupFiles.readFlatKeyed(memory.resolve("memory.stat"));
        long charged = CgroupFiles.readLong(memory.resolve("memory.usage_in_bytes"));
        OptionalLong limit = CgroupFiles.readLimit(memory.resolve("memory.limit_in_bytes"));
        OptionalLong highWaterMark = CgroupFiles.readOptionalLong(memory.resolve("memory.max_usage_in_bytes"));
        // With a swap limit equal to the memory limit, the memory+swap counter is the one that hits its limit
        // first, and only memory.memsw.failcnt counts it; take whichever counted more.
        long failcnt = Math.max(CgroupFiles.readOptionalLong(memory.resolve("memory.failcnt")).orElse(0),
                CgroupFiles.readOptionalLong(memory.resolve("memory.memsw.failcnt")).orElse(0));
        long oomKills = CgroupFiles.readFlatKeyed(memory.resolve("memory.oom_control")).getOrDefault("oom_kill", 0L);
        OptionalLong swap = stat.containsKey("total_swap") ? OptionalLong.of(stat.get("total_swap"))
                : OptionalLong.empty();

        long cpuTotal = 0;
        long user = 0;
        long system = 0;
        if (cpuacct.isPresent()) {
            cpuTotal = CgroupFiles.readLong(cpuacct.get().resolve("cpuacct.usage"));
            Map<String, Long> ticks = CgroupFiles.readFlatKeyed(cpuacct.get().resolve("cpuacct.stat"));
            user = ticks.getOrDefault("user", 0L) * NANOS_PER_TICK;
            system = ticks.getOrDefault("system", 0L) * NANOS_PER_TICK;
        }
        Map<String, Long> cpuStat = cpu.isPresent() ? CgroupFiles.readFlatKeyed(cpu.get().resolve("cpu.stat"))
                : Map.of();

        long[] io = blkio.isPresent() ? readBlkio(blkio.get()) : new long[2];
        long pidCount = pids.isPresent() ? CgroupFiles.readOptionalLong(pids.get().resolve("pids.current")).orElse(0)
                : 0;
        OptionalLong pidsLimit = pids.isPresent() ? CgroupFiles.readOptionalLong(pids.get().resolve("pids.max"))
                : OptionalLong.empty();

        return new RawReading(now, wallClock.instant(), cpuTotal, user, system, OptionalLong.empty(),
                Runtime.getRuntime().availableProcessors(), charged,
                stat.getOrDefault("total_inactive_file", 0L), stat.getOrDefault("total_cache", 0L),
                stat.getOrDefault("total_rss", 0L), swap, limit, highWaterMark, failcnt, oomKills, pidCount,
                pidsLimit, io[0], io[1], networkReceived, networkSent, cpuStat.getOrDefault("nr_periods", 0L),
                cpuStat.getOrDefault("nr_throttled", 0L), cpuStat.getOrDefault("throttled_time", 0L),
                PressureFiles.read(pressure));
    }

    /** containerd reads the *_recursive CFQ/BFQ file when it has lines, else the throttle file; so do we. */
    private static long[] readBlkio(Path dir) throws IOException {
        for (String name : new String[] {"blkio.io_service_bytes_recursive", "blkio.throttle.io_service_bytes"}) {
            Path file = dir.resolve(name);
            String text;
            try {
                text = Files.readString(file, StandardCharsets.US_ASCII);
            } catch (NoSuchFileException e) {
                continue;
            }
            if (text.lines().anyMatch(line -> line.trim().split("\\s+").length == 3)
                    || name.startsWith("blkio.throttle")) {
                return CgroupFiles.parseBlkioV1(text, file);
            }
        }
        return new long[2];
    }

    @Override
    public boolean resetHighWaterMark() throws IOException {
        // Any write resets memory.max_usage_in_bytes to the current usage. The mark is global to the cgroup, so
        // two tests measuring one shared container at the same time would reset each other's; the usage says so.
        try {
            Files.writeString(memory.resolve("memory.max_usage_in_bytes"), "0", StandardCharsets.US_ASCII);
            return true;
        } catch (java.nio.file.FileSystemException e) {
            // readable but not writable (not root, read-only /sys/fs/cgroup): measure on, without a per-test mark
            return false;
        }
    }

    @Override
    public boolean exists() {
        return Files.isDirectory(memory);
    }

    @Override
    public void close() {
        // nothing held open
    }
}
