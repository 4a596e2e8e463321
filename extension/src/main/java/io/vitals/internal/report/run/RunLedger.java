package io.vitals.internal.report.run;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.internal.files.AtomicFiles;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apiguardian.api.API;

/**
 * The JVMs of one run that write into one report directory (Surefire and Failsafe forks, Gradle workers), and the
 * parts each has written, so that the run ends with one index, page, summary and history entry holding every test.
 *
 * <p>Approach, after JaCoCo's: each JVM appends what it measured (its <em>part</em>: an index of its own tests, in
 * the run index's format, beside the per-test JSON files it already writes) and every JVM that closes rebuilds the
 * run-wide files from all parts under a file lock. Whichever JVM closes last therefore writes the complete files,
 * and no JVM needs to know whether others will follow ({@code reuseForks=false} starts them one after another).
 * Unlike JaCoCo's separate report goal, this needs no build-tool step, so it works the same in Maven, Gradle, the
 * IDE and the console launcher. The directory {@value #DIR} holds the run's identity ({@link RunIdentity}), the
 * lock and the parts; a JVM of another run starts the ledger afresh, so parts never leak from one run into the next.
 *
 * <p>A JVM that cannot use the ledger (an unwritable directory) works alone, as before: its own files, last
 * writer wins.
 */
@API(status = INTERNAL, since = "0.1")
public final class RunLedger {

    /** The ledger's directory inside the report directory. */
    public static final String DIR = ".vitals-run";

    private static final String RUN_FILE = "run";
    private static final String LOCK_FILE = "lock";
    private static final String PART_PREFIX = "part-";
    // not ".json": tools that read every JSON file of a report directory must not take a part for a test
    private static final String PART_SUFFIX = ".part";
    // a JVM blocked this long on another's lock works unlocked: a hung JVM must not hang the next one
    private static final Duration LOCK_WAIT = Duration.ofMinutes(2);

    private final Path dir;
    private final RunIdentity identity;
    private final String part;
    private final Instant startedAt;
    private final long startedAtMillis;
    private final boolean usable;
    private final Consumer<String> warnings;

    private RunLedger(Path dir, RunIdentity identity, String part, Stored run, boolean usable,
            Consumer<String> warnings) {
        this.dir = dir;
        this.identity = identity;
        this.part = part;
        this.startedAt = run.startedAt();
        this.startedAtMillis = run.startedAtMillis();
        this.usable = usable;
        this.warnings = warnings;
    }

    /**
     * Joins the run of {@code identity} in {@code reportDir}: continues it when the ledger is of the same run, else
     * starts it afresh (removing the parts of an earlier run).
     */
    public static RunLedger join(Path reportDir, RunIdentity identity, Instant now, Consumer<String> warnings) {
        Path dir = reportDir.resolve(DIR);
        String jvm = PART_PREFIX + RunIdentity.jvmKey(ProcessHandle.current()).replace('@', '-');
        Stored fresh = new Stored(identity.key(), now, System.currentTimeMillis());
        RunLedger unlocked = new RunLedger(dir, identity, jvm + PART_SUFFIX, fresh, true, warnings);
        try {
            Files.createDirectories(dir);
            return unlocked.locked(() -> {
                // what a JVM killed mid-write left, here and beside the run's own files
                AtomicFiles.removeLeftovers(dir);
                AtomicFiles.removeLeftovers(reportDir);
                Optional<Stored> stored = unlocked.stored();
                Stored run = fresh;
                if (stored.isPresent() && stored.get().key().equals(identity.key())) {
                    run = stored.get();
                } else {
                    unlocked.startAfresh(fresh);
                }
                // one part per session: Surefire reruns failing tests in a second session of the same JVM
                String part = jvm + PART_SUFFIX;
                for (int n = 2; Files.exists(dir.resolve(part)); n++) {
                    part = jvm + "-" + n + PART_SUFFIX;
                }
                Files.write(dir.resolve(part), new byte[0]); // claimed; empty until the session's first class ends
                return new RunLedger(dir, identity, part, run, true, warnings);
            });
        } catch (IOException | RuntimeException e) {
            // the report writer warns once about an unwritable directory; alone, this JVM's files are still right
            return new RunLedger(dir, identity, jvm + PART_SUFFIX, fresh, false, warnings);
        }
    }

    /** When the run started: when its first JVM joined. Every JVM of the run uses it as the run's time. */
    public Instant startedAt() {
        return startedAt;
    }

    /**
     * The same by this machine's wall clock, in milliseconds: files in the report directory older than this were
     * written by an earlier run.
     */
    public long startedAtMillis() {
        return startedAtMillis;
    }

    public RunIdentity identity() {
        return identity;
    }

    /** Whether no other JVM of this run has joined it so far (written a part, or claimed one). */
    public boolean alone() {
        if (!usable) {
            return true;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PART_PREFIX + "*" + PART_SUFFIX)) {
            for (Path file : files) {
                if (!file.getFileName().toString().equals(part)) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return true;
        }
    }

    /** Writes this JVM's part: an index of its own tests, whose JSON files must already be on disk. */
    public void writePart(byte[] index) throws IOException {
        if (usable) {
            AtomicFiles.write(dir.resolve(part), index);
        }
    }

    /**
     * The parts the other JVMs (and earlier sessions of this JVM) of this run wrote so far, oldest first; a part
     * still empty belongs to a session that has finished no class yet.
     */
    public List<Path> otherParts() {
        List<Path> parts = new ArrayList<>();
        if (!usable) {
            return parts;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PART_PREFIX + "*" + PART_SUFFIX)) {
            files.forEach(file -> {
                if (!file.getFileName().toString().equals(part) && size(file) > 0) {
                    parts.add(file);
                }
            });
        } catch (IOException e) {
            return parts;
        }
        parts.sort((a, b) -> Long.compare(modified(a), modified(b)));
        return parts;
    }

    /** Something done under the ledger's lock, which may throw {@code E}. */
    public interface Locked<T, E extends Exception> {
        T run() throws E;
    }

    /**
     * Runs {@code action} holding the ledger's lock, which every JVM of every run writing into this report directory
     * takes before it reads the others' parts and writes run-wide files. Re-checks that the ledger still belongs to
     * this run: where a JVM of another run (another identity) took it over meanwhile, this one warns and takes it
     * back, since two runs cannot share one index.
     */
    public <T> T whileLocked(Supplier<T> action) {
        if (!usable) {
            return action.get();
        }
        try {
            return locked(() -> {
                Optional<Stored> stored = stored();
                if (stored.isPresent() && !stored.get().key().equals(identity.key())) {
                    warnings.accept("Another test run (" + stored.get().key() + ") wrote reports into "
                            + dir.getParent() + " while this one (" + identity.description() + ") ran; the run-wide "
                            + "reports hold this run's tests only. Give each run its own " + MeasureResources.REPORT_DIR_KEY
                            + ", or set " + MeasureResources.RUN_ID_KEY + " to one value in every JVM of one build.");
                    try {
                        startAfresh(new Stored(identity.key(), startedAt, startedAtMillis));
                    } catch (IOException e) {
                        warnings.accept("Cannot take the run ledger " + dir + " back (" + e + ")");
                    }
                }
                return action.get();
            });
        } catch (LockException e) {
            warnings.accept(e.getMessage());
            return action.get();
        }
    }

    @SuppressWarnings("try") // the lock is held for the block and released on leaving it, never used in it
    private <T, E extends Exception> T locked(Locked<T, E> action) throws E {
        try (Held held = acquire()) {
            return action.run();
        }
    }

    /** The lock, held until closed. */
    private record Held(FileChannel channel, FileLock lock) implements AutoCloseable {
        @Override
        @SuppressWarnings("try") // the channel is only to be closed, after the lock's release
        public void close() {
            try (FileChannel closing = channel) {
                lock.release();
            } catch (IOException e) {
                // closing the channel releases the lock in any case
            }
        }
    }

    private Held acquire() {
        Path lockFile = dir.resolve(LOCK_FILE);
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            while (true) {
                try {
                    FileLock lock = channel.tryLock();
                    if (lock != null) {
                        return new Held(channel, lock);
                    }
                } catch (OverlappingFileLockException e) {
                    // another session of this JVM holds it (tests run two): wait as for another process
                }
                if (System.nanoTime() > deadline) {
                    throw new LockException("Waited " + LOCK_WAIT.toMinutes() + " minutes for " + lockFile
                            + ", held by another JVM; writing the run's reports without it");
                }
                Thread.sleep(10);
            }
        } catch (IOException e) {
            closeQuietly(channel);
            throw new LockException("Cannot lock " + lockFile + " (" + e + "); writing the run's reports without it");
        } catch (InterruptedException e) {
            closeQuietly(channel);
            Thread.currentThread().interrupt();
            throw new LockException("Interrupted while waiting for " + lockFile);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held
            }
        }
    }

    private void startAfresh(Stored run) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PART_PREFIX + "*")) {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
        AtomicFiles.write(dir.resolve(RUN_FILE), run.key() + "\n" + run.startedAt() + "\n" + run.startedAtMillis()
                + "\n");
    }

    /** The run file: the run's identity, its start by the session's clock, and by the wall clock. */
    private record Stored(String key, Instant startedAt, long startedAtMillis) {
    }

    private Optional<Stored> stored() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(RUN_FILE), StandardCharsets.UTF_8);
            return lines.size() < 3 ? Optional.empty()
                    : Optional.of(new Stored(lines.get(0), Instant.parse(lines.get(1)), Long.parseLong(lines.get(2))));
        } catch (IOException | DateTimeParseException | NumberFormatException e) {
            return Optional.empty(); // none yet, or damaged: the next JVM starts afresh
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static final class LockException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LockException(String message) {
            super(message);
        }
    }
}
