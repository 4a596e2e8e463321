package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.apiguardian.api.API;

/**
 * Writes a file so that readers see either the old or the new content, never half of it: the bytes go to a
 * temporary file in the same directory, which is then renamed over the target. A JVM killed mid-write leaves at
 * most a stray {@code .tmp} file, never a truncated report.
 */
@API(status = INTERNAL, since = "0.1")
public final class AtomicFiles {

    private AtomicFiles() {
    }

    public static void write(Path target, String content) throws IOException {
        write(target, content.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path target, byte[] content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        // Unique per process and thread, so concurrent writers never share a temporary file; cheaper than
        // createTempFile's random names, which matters with a thousand reports per run.
        Path temp = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + Thread.currentThread().getId() + ".tmp");
        // Two system calls per file fewer than checking the directory first and removing the temporary file after
        // the rename (which moved it): a run writes a file per test, and on a busy machine each call into the
        // filesystem is tens of microseconds. The directory is made when the first write finds it missing.
        boolean renamed = false;
        try {
            try {
                Files.write(temp, content);
            } catch (NoSuchFileException e) {
                Files.createDirectories(dir);
                Files.write(temp, content);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // Same directory, so this only happens on exotic filesystems; a plain replace is the best left.
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            renamed = true;
        } finally {
            if (!renamed) {
                Files.deleteIfExists(temp);
            }
        }
    }
}
