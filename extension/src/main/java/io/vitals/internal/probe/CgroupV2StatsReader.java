package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * cgroup v2 files. Times are in microseconds. The high-water mark is {@code memory.peak}; since Linux 6.12 a
 * write to it resets the mark <em>for that open file only</em>, so this reader keeps one file open per container
 * and reads the peak back through it. On older kernels (and for users who may not write the file) the write fails
 * and the peak covers the cgroup's lifetime: it is still reported, because for a container started by the test
 * its lifetime is the test; {@link #resetHighWaterMark()} returning false tells the caller it is not per window.
 */
final class CgroupV2StatsReader implements CgroupStatsReader {

    private final Path dir;
    private FileChannel peakChannel;
    private boolean peakIsPerWindow;

    CgroupV2StatsReader(Path dir) {
        this.dir = dir;
    }

    @Override
    public synchronized RawReading read(Clock wallClock, long networkReceived, long networkSent)
            throws IOException {
        long now = System.nanoTime();
        Map<String, Long> stat = CgroupFiles.readFlatKeyed(dir.resolve("memory.stat"));
        long charged = CgroupFiles.readLong(dir.resolve("memory.current"));
        OptionalLong limit = CgroupFiles.readLimit(dir.resolve("memory.max"));
        Map<String, Long> events = CgroupFiles.readFlatKeyed(dir.resolve("memory.events"));
        Map<String, Long> cpuStat = CgroupFiles.readFlatKeyed(dir.resolve("cpu.stat"));
        long[] io = readIoStat();
        return new RawReading(now, wallClock.instant(),
                cpuStat.getOrDefault("usage_usec", 0L) * 1000, cpuStat.getOrDefault("user_usec", 0L) * 1000,
                cpuStat.getOrDefault("system_usec", 0L) * 1000, OptionalLong.empty(),
                Runtime.getRuntime().availableProcessors(), charged, stat.getOrDefault("inactive_file", 0L),
                stat.getOrDefault("file", 0L), stat.getOrDefault("anon", 0L),
                CgroupFiles.readOptionalLong(dir.resolve("memory.swap.current")), limit, readPeak(),
                events.getOrDefault("max", 0L), events.getOrDefault("oom_kill", 0L),
                CgroupFiles.readOptionalLong(dir.resolve("pids.current")).orElse(0),
                CgroupFiles.readOptionalLong(dir.resolve("pids.max")), io[0], io[1], networkReceived, networkSent,
                cpuStat.getOrDefault("nr_periods", 0L), cpuStat.getOrDefault("nr_throttled", 0L),
                cpuStat.getOrDefault("throttled_usec", 0L) * 1000, PressureFiles.read(Optional.of(dir)));
    }

    private long[] readIoStat() throws IOException {
        Path file = dir.resolve("io.stat");
        try {
            return CgroupFiles.parseIoStatV2(Files.readString(file, StandardCharsets.US_ASCII), file);
        } catch (NoSuchFileException e) {
            return new long[2];
        }
    }

    private OptionalLong readPeak() throws IOException {
        if (peakChannel == null || !peakIsPerWindow) {
            // the cgroup's lifetime mark (6.1, or no write access); absent before Linux 5.19
            return CgroupFiles.readOptionalLong(dir.resolve("memory.peak"));
        }
        ByteBuffer buffer = ByteBuffer.allocate(32);
        peakChannel.read(buffer, 0);
        buffer.flip();
        return CgroupFiles.parseOptionalLong(StandardCharsets.US_ASCII.decode(buffer).toString().trim(),
                dir.resolve("memory.peak"));
    }

    @Override
    public synchronized boolean resetHighWaterMark() throws IOException {
        Path file = dir.resolve("memory.peak");
        if (!Files.exists(file)) {
            return false; // before Linux 5.19
        }
        try {
            if (peakChannel == null) {
                // before 6.12 memory.peak is mode 0444: opening it for writing fails for users without
                // CAP_DAC_OVERRIDE, which means "no resettable mark", not a failed window
                peakChannel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            peakChannel.write(ByteBuffer.wrap("reset\n".getBytes(StandardCharsets.US_ASCII)), 0);
            peakIsPerWindow = true;
        } catch (IOException e) {
            // Before Linux 6.12 memory.peak is read-only: a lifetime peak is no per-test figure, so report none.
            peakIsPerWindow = false;
        }
        return peakIsPerWindow;
    }

    @Override
    public boolean exists() {
        return Files.isDirectory(dir);
    }

    @Override
    public synchronized void close() {
        if (peakChannel != null) {
            try {
                peakChannel.close();
            } catch (IOException e) {
                // closing a sysfs file cannot lose data; nothing to report
            }
            peakChannel = null;
        }
    }
}
