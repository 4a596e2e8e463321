package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The three PSI files of a cgroup v2 directory, kept open, if the host exposes them. Without {@code cpu.pressure}
 * (PSI disabled with {@code psi=0}, or a kernel without it) there is no pressure at all; a missing memory or io file
 * reads as zero.
 */
final class PressureFiles implements AutoCloseable {

    private final Optional<CgroupFile> cpu;
    private final Optional<CgroupFile> memory;
    private final Optional<CgroupFile> io;
    private final long[] totals = new long[2];

    private PressureFiles(Optional<CgroupFile> cpu, Optional<CgroupFile> memory, Optional<CgroupFile> io) {
        this.cpu = cpu;
        this.memory = memory;
        this.io = io;
    }

    static PressureFiles open(Optional<Path> dir) throws IOException {
        if (dir.isEmpty()) {
            return new PressureFiles(Optional.empty(), Optional.empty(), Optional.empty());
        }
        Optional<CgroupFile> cpu = CgroupFile.openIfPresent(dir.get().resolve("cpu.pressure"));
        if (cpu.isEmpty()) {
            return new PressureFiles(Optional.empty(), Optional.empty(), Optional.empty());
        }
        return new PressureFiles(cpu, CgroupFile.openIfPresent(dir.get().resolve("memory.pressure")),
                CgroupFile.openIfPresent(dir.get().resolve("io.pressure")));
    }

    /** Reads the files of {@code dir} once, closing them again. */
    static Optional<PressureTotals> read(Optional<Path> dir) throws IOException {
        try (PressureFiles files = open(dir)) {
            return files.read();
        }
    }

    Optional<PressureTotals> read() throws IOException {
        if (cpu.isEmpty()) {
            return Optional.empty();
        }
        long cpuSome = 0;
        long cpuFull = 0;
        read(cpu.get());
        cpuSome = totals[0];
        cpuFull = totals[1];
        long memorySome = 0;
        long memoryFull = 0;
        if (memory.isPresent()) {
            read(memory.get());
            memorySome = totals[0];
            memoryFull = totals[1];
        }
        long ioSome = 0;
        long ioFull = 0;
        if (io.isPresent()) {
            read(io.get());
            ioSome = totals[0];
            ioFull = totals[1];
        }
        return Optional.of(new PressureTotals(cpuSome, cpuFull, memorySome, memoryFull, ioSome, ioFull));
    }

    private void read(CgroupFile file) throws IOException {
        file.read();
        PressureLines.parsePressure(file.bytes(), file.length(), totals, file.path());
    }

    @Override
    public void close() {
        cpu.ifPresent(CgroupFile::close);
        memory.ifPresent(CgroupFile::close);
        io.ifPresent(CgroupFile::close);
    }
}
