package io.vitals.internal.report;

import io.vitals.internal.files.AtomicFiles;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Each test's JSON file: where it goes in the report directory, and its writing, which first clears the files of
 * earlier runs from the class's directory. Safe to call from the test threads and the report thread.
 */
final class TestFiles {

    private final Path reportDir;
    private final TestJsonWriter json;
    private final ReportFiles files;
    private final Consumer<String> warnings;
    // Files older than this were written by an earlier run (see ReportSession's constructor).
    private final long staleBeforeMillis;
    private final Map<String, String> pathsById = new HashMap<>();
    // compared case-insensitively, since macOS and Windows filesystems are
    private final Set<String> usedPaths = new HashSet<>();
    // Held while a class's directory is cleared, so that no test JSON is written into it before its stale files are
    // gone; not this object's monitor, which pathFor takes on the test threads: deleting an earlier run's thousands
    // of files must not hold up the tests naming theirs.
    private final Object clearing = new Object();
    private final Set<String> clearedDirectories = new HashSet<>(); // guarded by clearing

    TestFiles(Path reportDir, TestJsonWriter json, ReportFiles files, long staleBeforeMillis,
            Consumer<String> warnings) {
        this.reportDir = reportDir;
        this.json = json;
        this.files = files;
        this.staleBeforeMillis = staleBeforeMillis;
        this.warnings = warnings;
    }

    /**
     * The test's file, relative to the report directory: unique per test, so a second test whose name makes the
     * same file gets "-2", "-3", ...; the same test asked again gets the same file.
     */
    synchronized String pathFor(TestResult result) {
        String known = pathsById.get(result.uniqueId());
        if (known != null) {
            return known;
        }
        String dir = ReportNames.classDirectory(result.className());
        String stem = ReportNames.fileStem(result);
        String candidate = dir + "/" + stem + ".json";
        for (int n = 2; usedPaths.contains(candidate.toLowerCase(Locale.ROOT)); n++) {
            candidate = dir + "/" + stem + "-" + n + ".json";
        }
        usedPaths.add(candidate.toLowerCase(Locale.ROOT));
        pathsById.put(result.uniqueId(), candidate);
        return candidate;
    }

    /**
     * Renders and writes the test's JSON to {@code file}, which {@link #pathFor} named.
     *
     * @return the file, or empty when it could not be rendered or written (a warning says why)
     */
    Optional<Path> write(TestResult result, List<BudgetSuggestion> suggested, Path file) {
        byte[] rendered;
        try {
            rendered = json.write(result, suggested);
        } catch (RuntimeException e) {
            warnings.accept("Failed to render the JSON report of " + result.uniqueId() + ": " + e);
            return Optional.empty();
        }
        clearStale(file.getParent());
        return files.write(file, () -> rendered) ? Optional.of(file) : Optional.empty();
    }

    /**
     * Deletes, the first time this JUnit launcher session writes into a class's directory, the test JSON files an
     * earlier run left there (a renamed or deleted test), so the directory holds what the index lists. Only that
     * class's directory is touched, and only files older than this launcher session: another module, another plugin
     * execution or a parallel fork writes other directories or newer files. The temporary files of a JVM killed
     * mid-write go too ({@link AtomicFiles#removeLeftovers}).
     */
    private void clearStale(Path classDirectory) {
        synchronized (clearing) {
            if (classDirectory == null || !clearedDirectories.add(classDirectory.toString())
                    || !Files.isDirectory(classDirectory)) {
                return;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(classDirectory, "*.json")) {
                for (Path file : files) {
                    String relative = reportDir.relativize(file).toString().replace('\\', '/');
                    if (!isUsed(relative) && Files.isRegularFile(file)
                            && Files.getLastModifiedTime(file).toMillis() < staleBeforeMillis) {
                        Files.deleteIfExists(file);
                    }
                }
                AtomicFiles.removeLeftovers(classDirectory);
            } catch (IOException | UncheckedIOException e) {
                warnings.accept("Could not remove stale reports from " + classDirectory + ": " + e);
            }
        }
    }

    private synchronized boolean isUsed(String relativePath) {
        return usedPaths.contains(relativePath.toLowerCase(Locale.ROOT));
    }
}
