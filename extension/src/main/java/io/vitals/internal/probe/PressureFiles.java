package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Reads the three PSI files of a cgroup v2 directory, if the host exposes them. */
final class PressureFiles {

    private PressureFiles() {
    }

    static Optional<PressureTotals> read(Optional<Path> dir) throws IOException {
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        Optional<long[]> cpu = CgroupFiles.readPressure(dir.get().resolve("cpu.pressure"));
        if (cpu.isEmpty()) {
            return Optional.empty(); // PSI disabled (psi=0) or kernel without it
        }
        long[] memory = CgroupFiles.readPressure(dir.get().resolve("memory.pressure")).orElse(new long[2]);
        long[] io = CgroupFiles.readPressure(dir.get().resolve("io.pressure")).orElse(new long[2]);
        return Optional.of(new PressureTotals(cpu.get()[0], cpu.get()[1], memory[0], memory[1], io[0], io[1]));
    }
}
