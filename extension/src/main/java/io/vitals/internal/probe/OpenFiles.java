package io.vitals.internal.probe;

import io.vitals.internal.probe.cgroupfs.CgroupFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The descriptors one reader holds, so that they are all closed together: when the watch ends, and when opening a
 * later file of the set fails half-way. Not thread-safe: its reader synchronises.
 */
final class OpenFiles implements AutoCloseable {

    private final List<AutoCloseable> open = new ArrayList<>();

    CgroupFile required(Path file) throws IOException {
        return keep(CgroupFile.open(file));
    }

    Optional<CgroupFile> optional(Path file) throws IOException {
        Optional<CgroupFile> opened = CgroupFile.openIfPresent(file);
        opened.ifPresent(this::keep);
        return opened;
    }

    /** {@code dir.resolve(name)} if the controller is mounted and the file exists, else empty. */
    Optional<CgroupFile> optional(Optional<Path> dir, String name) throws IOException {
        return dir.isPresent() ? optional(dir.get().resolve(name)) : Optional.empty();
    }

    PressureFiles pressure(Optional<Path> dir) throws IOException {
        return keep(PressureFiles.open(dir));
    }

    private <T extends AutoCloseable> T keep(T file) {
        open.add(file);
        return file;
    }

    @Override
    public void close() {
        for (AutoCloseable file : open) {
            try {
                file.close();
            } catch (Exception e) {
                // CgroupFile and PressureFiles swallow their own close errors; nothing else is kept here
            }
        }
        open.clear();
    }
}
