package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.apiguardian.api.API;

/**
 * Replaces a file people keep and review (a baseline, a run history) so that no version is lost: the new content
 * goes in atomically ({@link AtomicFiles}), and the content it replaces is first kept beside it as
 * {@code <name>.previous}, so one bad update is undone with one move. Content equal to what is there is not
 * written at all, so the previous file keeps the last real change rather than a copy of the current one.
 *
 * <p>Whether a file may be replaced at all (one that could not be read never may) is the caller's decision; this
 * class only makes the replacement safe.
 */
@API(status = INTERNAL, since = "0.1")
public final class StoredFile {

    /** What {@link #previous} appends to the file's name. */
    public static final String PREVIOUS_SUFFIX = ".previous";

    private StoredFile() {
    }

    /** Where the content {@code file} had before its last replacement is kept: {@code <name>.previous} beside it. */
    public static Path previous(Path file) {
        return file.resolveSibling(file.getFileName() + PREVIOUS_SUFFIX);
    }

    /**
     * Writes {@code content} to {@code file}, keeping what it held as {@link #previous}. The previous copy is
     * complete before the file is replaced, so a JVM killed at any point leaves the old content in one of them.
     *
     * @return whether anything was written: false when the file already holds {@code content}
     */
    public static boolean replace(Path file, byte[] content) throws IOException {
        // what a JVM killed while replacing it before left (once a run, so one listing is cheap)
        AtomicFiles.removeLeftovers(file.toAbsolutePath().getParent(), file.getFileName().toString());
        if (Files.exists(file)) {
            byte[] current = Files.readAllBytes(file);
            if (Arrays.equals(current, content)) {
                return false;
            }
            AtomicFiles.write(previous(file), current);
        }
        AtomicFiles.write(file, content);
        return true;
    }
}
