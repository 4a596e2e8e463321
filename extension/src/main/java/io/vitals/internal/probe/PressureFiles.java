package io.vitals.internal.probe;

import io.vitals.internal.probe.cgroupfs.CgroupFile;
import io.vitals.internal.probe.cgroupfs.PairLines;
import io.vitals.internal.probe.cgroupfs.PressureLines;

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
    /** {some, full} of each file, filled by the allocation-free parser. */
    private final long[] cpuTotals = new long[2];
    private final long[] memoryTotals = new long[2];
    private final long[] ioTotals = new long[2];

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
        PairLines.read(cpu, PressureLines::parsePressure, cpuTotals);
        PairLines.read(memory, PressureLines::parsePressure, memoryTotals);
        PairLines.read(io, PressureLines::parsePressure, ioTotals);
        return Optional.of(new PressureTotals(cpuTotals[0], cpuTotals[1], memoryTotals[0], memoryTotals[1],
                ioTotals[0], ioTotals[1]));
    }

    @Override
    public void close() {
        cpu.ifPresent(CgroupFile::close);
        memory.ifPresent(CgroupFile::close);
        io.ifPresent(CgroupFile::close);
    }
}
