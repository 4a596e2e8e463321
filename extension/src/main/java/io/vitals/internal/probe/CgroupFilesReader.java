package io.vitals.internal.probe;

import static io.vitals.internal.probe.cgroupfs.CgroupFiles.orElse;

import io.vitals.internal.probe.cgroupfs.CgroupFile;
import io.vitals.internal.probe.cgroupfs.CgroupFiles;
import io.vitals.internal.probe.cgroupfs.MarkFile;
import io.vitals.internal.probe.cgroupfs.PairLines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the cgroup v1 and v2 readers share: the files both versions have (the charged memory, memory.stat with the
 * sourced figures' keys, pids.current and pids.max, the pressure files), the buffers their allocation-free parsers
 * fill, and how a reading is put together from them. Each version knows its own files' names and units.
 */
abstract class CgroupFilesReader implements CgroupStatsReader {

    /** Opens what a reader's constructor opens, so that {@link #open} can close it again when that fails. */
    @FunctionalInterface
    interface Opener<R> {
        R open(OpenFiles files) throws IOException;
    }

    final OpenFiles files;
    final CgroupFile charged;
    final CgroupFile memoryStat;
    /** memory.stat's keys: inactive file, page cache and anonymous memory first, then the version's own. */
    final CgroupFiles.Keys memoryStatKeys;
    final long[] stat;
    /** Read and written bytes, filled by the allocation-free parser; a {@link BlockIoReading} is made of them. */
    final long[] io = new long[2];
    /** Asked once: in a container-aware JVM it reads cgroup files itself. */
    final int onlineCpus = Runtime.getRuntime().availableProcessors();
    /** The file whose write resets the memory high-water mark; on cgroup v2 the mark is read back through it. */
    final MarkFile mark;
    private final Path memoryDir;
    private final Optional<CgroupFile> pidsCurrent;
    private final Optional<CgroupFile> pidsMax;
    private final PressureFiles pressure;
    private final SourcedCgroupValues sourced;

    /**
     * @param chargedFile the charged memory's file in {@code memoryDir} (memory.usage_in_bytes, memory.current)
     * @param statKeys memory.stat's keys, the base figures' first, then the sourced figures'
     * @param mark the file in {@code memoryDir} whose write resets the high-water mark
     */
    CgroupFilesReader(OpenFiles files, boolean cgroupV1, Path memoryDir, String chargedFile, List<String> statKeys,
            MarkFile mark, Optional<Path> pidsDir, Optional<Path> pressureDir) throws IOException {
        this.files = files;
        this.memoryDir = memoryDir;
        this.mark = mark;
        this.charged = files.required(memoryDir.resolve(chargedFile));
        this.memoryStat = files.required(memoryDir.resolve("memory.stat"));
        this.memoryStatKeys = new CgroupFiles.Keys(statKeys.toArray(String[]::new));
        this.stat = memoryStatKeys.newValues();
        this.pidsCurrent = files.optional(pidsDir, "pids.current");
        this.pidsMax = files.optional(pidsDir, "pids.max");
        this.pressure = files.pressure(pressureDir);
        this.sourced = new SourcedCgroupValues(cgroupV1, memoryDir, statKeys, files);
    }

    /** Runs {@code opener} on new {@link OpenFiles}, closing them when it fails. */
    static <R> R open(Opener<R> opener) throws IOException {
        OpenFiles files = new OpenFiles();
        try {
            return opener.open(files);
        } catch (IOException | RuntimeException e) {
            files.close();
            throw e;
        }
    }

    /** The memory figures both versions take from memory.stat (read into {@link #stat}) and the charged memory. */
    final MemoryReading.Builder memory(long chargedBytes) {
        return MemoryReading.builder()
                .charged(chargedBytes)
                .inactiveFile(orElse(stat[0], 0))
                .pageCache(orElse(stat[1], 0))
                .anonymous(orElse(stat[2], 0));
    }

    final long pidsCurrent(long otherwise) throws IOException {
        return value(pidsCurrent, otherwise);
    }

    final PidsReading pids() throws IOException {
        return new PidsReading(pidsCurrent(0), optionalValue(pidsMax));
    }

    /**
     * Reads every file once: memory.stat first, since both versions' memory figures and the sourced figures come
     * from it, then the version's own memory, CPU and block I/O files, the PIDs, and the pressure files and the
     * sourced figures last.
     */
    @Override
    public final synchronized RawReading read(Clock wallClock, NetworkReading network) throws IOException {
        long now = System.nanoTime();
        memoryStat.readKeyed(memoryStatKeys, stat);
        MemoryReading memory = readMemory();
        CpuReading cpu = readCpu();
        return RawReading.builder().at(now, wallClock.instant()).cpu(cpu).memory(memory).pids(pids())
                .blockIo(readBlockIo()).network(network).pressure(pressure.read()).sourced(sourced.read(stat))
                .build();
    }

    /** The memory figures, after memory.stat has been read into {@link #stat}; see {@link #memory}. */
    abstract MemoryReading readMemory() throws IOException;

    abstract CpuReading readCpu() throws IOException;

    abstract BlockIoReading readBlockIo() throws IOException;

    /** Block I/O read from {@code file} with {@code parser}; none without the file. */
    final BlockIoReading blockIo(Optional<CgroupFile> file, PairLines.FileParser parser) throws IOException {
        PairLines.read(file, parser, io);
        return new BlockIoReading(io[0], io[1]);
    }

    static long value(Optional<CgroupFile> file, long otherwise) throws IOException {
        return file.isPresent() ? orElse(file.get().readValue(), 0) : otherwise;
    }

    /** The file's single value; empty without the file, for {@code max} or for an empty file. */
    static OptionalLong optionalValue(Optional<CgroupFile> file) throws IOException {
        return file.isPresent() ? CgroupFiles.optional(file.get().readValue()) : OptionalLong.empty();
    }

    /** A limit: empty without the file and where {@link CgroupFiles#limit} says there is none. */
    static OptionalLong limitValue(Optional<CgroupFile> file) throws IOException {
        return file.isPresent() ? CgroupFiles.limit(file.get().readValue()) : OptionalLong.empty();
    }

    /**
     * Synchronized with {@link #read}, as before the mark's file had a class of its own: on cgroup v2 a full read
     * asks whether the mark's descriptor is open and then reads through it, and a reset that fails closes it.
     */
    @Override
    public synchronized boolean resetHighWaterMark() {
        // On cgroup v1 the mark is global to the cgroup, so two tests measuring one shared container at the same
        // time would reset each other's; the usage says so. On cgroup v2 (Linux 6.12 on) each open file has its own.
        try {
            mark.reset();
            return true;
        } catch (IOException e) {
            // no resettable mark: not root, a read-only /sys/fs/cgroup, memory.peak absent (before Linux 5.19) or
            // read-only (before 6.12), or the cgroup gone; measure on without a per-test mark, which the caller says
            return false;
        }
    }

    @Override
    public boolean exists() {
        return Files.isDirectory(memoryDir);
    }

    @Override
    public synchronized void close() {
        files.close();
        mark.close();
    }
}
