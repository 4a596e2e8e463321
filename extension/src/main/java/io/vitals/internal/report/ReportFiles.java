package io.vitals.internal.report;

import io.vitals.MeasureResources;
import io.vitals.internal.files.AtomicFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Writes the files of one report directory, each atomically, and turns a failure into a warning: a report must never
 * break a test. An unwritable directory is named once, not once per file.
 */
final class ReportFiles {

    /** A file's content, rendered when it is written: a writer that fails costs that file alone. */
    interface Content {
        byte[] get();
    }

    private final Path reportDir;
    private final Consumer<String> warnings;
    private final AtomicBoolean warnedUnwritable = new AtomicBoolean();

    ReportFiles(Path reportDir, Consumer<String> warnings) {
        this.reportDir = reportDir;
        this.warnings = warnings;
    }

    /** Writes {@code content} to {@code file}; false, with a warning, when it could not. */
    boolean write(Path file, Content content) {
        try {
            AtomicFiles.write(file, content.get());
            return true;
        } catch (IOException | UncheckedIOException e) {
            if (warnedUnwritable.compareAndSet(false, true)) {
                warnings.accept("Cannot write Vitals reports to " + reportDir.toAbsolutePath() + " ("
                        + e + "); tests run on, but reports are missing. Set " + MeasureResources.REPORT_DIR_KEY
                        + " to a writable directory. Further write failures are not reported.");
            }
        } catch (RuntimeException e) {
            // A bug in one writer must not cost the other reports or the tests.
            warnings.accept("Failed to write " + file + ": " + e);
        }
        return false;
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
