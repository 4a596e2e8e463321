package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * Writes a file so that readers see either the old or the new content, never half of it: the bytes go to a
 * temporary file in the same directory, which is then renamed over the target. A JVM killed mid-write leaves at
 * most a stray {@code .tmp} file, never a truncated report; {@link #removeLeftovers} takes such files away when a
 * later JVM writes to the same directory.
 */
@API(status = INTERNAL, since = "0.1")
public final class AtomicFiles {

    private static final String TEMP_SUFFIX = ".tmp";
    // When this JVM first wrote or cleaned up through this class: a temporary file older than that and of a process
    // gone was left by a JVM before it. Not the JVM's start from ProcessHandle, which Linux gives to the second
    // (the boot time in /proc/stat), so up to a second early: a JVM killed just before this one started would keep
    // its files. A fact of the process, set once.
    private static final long FIRST_USE_MILLIS = System.currentTimeMillis();

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
                + Thread.currentThread().getId() + TEMP_SUFFIX);
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

    /**
     * Removes from {@code dir} the temporary files of {@link #write} that a JVM killed mid-write left behind. A file
     * counts as left behind when the process its name carries no longer runs and it was written before this JVM
     * first used this class: a writer in another PID namespace (a container sharing the directory) can look gone from
     * here, but its temporary file lives for the microseconds between write and rename, never from before that. A
     * recycled process id keeps a file until that process ends too, which errs on the safe side. Best effort: a
     * directory that cannot be listed, or a file that cannot be removed, is left as it is.
     *
     * @return how many files were removed
     */
    public static int removeLeftovers(Path dir) {
        return removeLeftovers(dir, "");
    }

    /** The same, for the temporary files of one target in {@code dir} and of the files named after it. */
    public static int removeLeftovers(Path dir, String targetName) {
        long self = ProcessHandle.current().pid();
        String prefix = "." + targetName;
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*" + TEMP_SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                OptionalLong pid = writerPid(name);
                if (name.startsWith(prefix) && pid.isPresent() && pid.getAsLong() != self
                        && ProcessHandle.of(pid.getAsLong()).isEmpty() && lastModifiedMillis(file) < FIRST_USE_MILLIS
                        && deleted(file)) {
                    removed++;
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            // none yet, or unreadable: what is left stays, as before this cleanup existed
        }
        return removed;
    }

    /** The process id in a temporary file's name {@code .<target>.<pid>-<thread>.tmp}, if it is one. */
    static OptionalLong writerPid(String name) {
        if (!name.startsWith(".") || !name.endsWith(TEMP_SUFFIX)) {
            return OptionalLong.empty();
        }
        String stem = name.substring(0, name.length() - TEMP_SUFFIX.length());
        int dot = stem.lastIndexOf('.');
        int dash = stem.lastIndexOf('-');
        if (dot <= 0 || dash <= dot + 1 || dash == stem.length() - 1) {
            return OptionalLong.empty();
        }
        try {
            Long.parseLong(stem.substring(dash + 1));
            return OptionalLong.of(Long.parseLong(stem.substring(dot + 1, dash)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static boolean deleted(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            return false;
        }
    }

    private static long lastModifiedMillis(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE; // gone already, or unreadable: leave it
        }
    }
}
