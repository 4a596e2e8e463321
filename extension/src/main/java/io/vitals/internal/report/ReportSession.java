package io.vitals.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.log.UserLog;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.HistorySuggestions;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.run.RunIdentity;
import io.vitals.internal.report.run.RunLedger;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonFactory;
import org.apiguardian.api.API;

/**
 * The reports of one test run: created once per run, shared by every test class (also when they run in parallel),
 * closed at the end.
 *
 * <p>Lifecycle: for each test, {@link #compare} (before the outcome is decided, so a regression can fail the test)
 * and then {@link #testFinished}, which records the test and hands its JSON to the report thread; after each class
 * {@link #classFinished}, which prints the console table and has the run index rewritten on the report thread, so
 * a run that crashes still leaves a usable index without every class paying for rendering it;
 * finally {@link #close()}, which writes the index, the HTML page, the Markdown summary, the Prometheus file and the
 * updated baseline while the report thread finishes what it was given, and returns when both are done. Where the
 * launcher says no test is left to run, {@link #prepareClose()} writes the report files before that, while the last
 * classes stop their containers, and the close keeps them if nothing changed since.
 *
 * <p>Why a report thread: rendering and writing a test's JSON took about a millisecond of the test's own time
 * (0.23 ms to render, 0.74 ms for the atomic write, measured with {@code PerTestOverheadBenchmark}), more than
 * everything else Vitals does per test. One thread, first in first out, so every file is written in the order the
 * tests finished and the index rewrite after a class comes after that class's files; woken once per batch of tests
 * ({@link ReportQueue}), since waking it for each test cost the test about as much again.
 *
 * <p>Reliability: a report must never break a test. Every write is atomic (temporary file, then rename), so a JVM
 * that is killed leaves no half-written file, only the files not yet written; a failing write is reported through
 * the warnings sink, once for an unwritable directory, and never thrown. The bookkeeping is synchronized; rendering
 * and writing run outside the lock.
 *
 * <p>This class keeps the lifecycle and the bookkeeping; the comparisons are {@link RunRegressions}', the test files
 * {@link TestFiles}', the run-wide files {@link RunFiles}', the console's output {@link SessionConsole}'s.
 */
@API(status = INTERNAL, since = "0.1")
public final class ReportSession implements AutoCloseable {

    public static final String INDEX_FILE = "vitals.json";
    public static final String HTML_FILE = "index.html";
    public static final String SUMMARY_FILE = "summary.md";
    public static final String PROMETHEUS_FILE = "vitals.prom";

    private static final long STALE_MARGIN_MILLIS = 2_000;
    // 10,000 test files take about 15 s on a loaded 2-core machine; a thread stuck far beyond that is hung
    private static final long CLOSE_WAIT_MINUTES = 5;
    // How long a finished test's file may wait to be written with those of the tests after it: the writer thread
    // wakes once per batch instead of once per test. A JVM killed meanwhile loses at most this much of the reports.
    private static final Duration BATCH_DELAY = Duration.ofMillis(20);

    private final ReportSettings settings;
    private final Clock clock;
    private final Consumer<String> warnings;

    private final JsonFactory jsonFactory = new JsonFactory();
    private final RunIndexWriter index = new RunIndexWriter(jsonFactory);

    private final RunLedger ledger;
    private final RunRegressions regressions;
    private final ReportFiles files;
    private final TestFiles testFiles;
    private final RunFiles runFiles;
    private final SessionConsole sessionConsole;

    private final Map<String, RunReport.Entry> entries = new LinkedHashMap<>();
    // tests whose JSON the report thread has written: a part names no file that is not there yet
    private final Set<String> onDisk = ConcurrentHashMap.newKeySet();
    private final Map<String, RegressionVerdict> verdicts = new HashMap<>();
    private boolean closed;
    private boolean indexWritePending;
    private ReportQueue reportThread;
    // what the run-wide files are made of changes with every test compared or finished: a prepared writing of
    // them (prepareClose) counts for close() only while this has not moved since
    private long changes;
    private Prepared prepared;

    /** The run-wide files written before the close: from the snapshot taken when {@code changes} was {@code at}. */
    private record Prepared(long at, RunFiles.Snapshot snapshot, CompletableFuture<byte[]> ownIndex) {
    }

    /**
     * A session printing its console output ({@code vitals.console}) to {@code System.out} and warning through the
     * {@code io.vitals.report} logger ({@link UserLog}).
     */
    public ReportSession(ReportSettings settings) {
        this(settings, RunIdentity.current(settings.history().runId()), Clock.systemUTC(), System.out::print,
                UserLog.named(UserLog.REPORT).warnings());
    }

    /**
     * A session that is a run of its own, whatever other sessions write into its directory.
     *
     * @param console where console tables and JSON lines go (each ends with a line break)
     * @param warnings where warnings go, one sentence each
     */
    public ReportSession(ReportSettings settings, Clock clock, Consumer<String> console, Consumer<String> warnings) {
        this(settings, RunIdentity.solo(), clock, console, warnings);
    }

    /**
     * @param run the run this session is part of: sessions of one run in one report directory, in this JVM or
     *     others, write one set of run-wide files together ({@link RunLedger})
     * @param console where console tables and JSON lines go (each ends with a line break)
     * @param warnings where warnings go, one sentence each
     */
    public ReportSession(ReportSettings settings, RunIdentity run, Clock clock, Consumer<String> console,
            Consumer<String> warnings) {
        this.settings = settings;
        this.clock = clock;
        this.warnings = warnings;
        // first, so that every JVM of a forked run shares the run's start (its history id) and its files
        this.ledger = RunLedger.join(settings.reportDir(), run, clock.instant(), warnings);
        this.regressions = new RunRegressions(settings, ledger.startedAt(), warnings);
        this.files = new ReportFiles(settings.reportDir(), warnings);
        // Files older than this were written by an earlier run: the run began when its first JVM joined the ledger.
        // The margin covers coarse file-time resolution, so a file a parallel fork of the same run wrote just after
        // the run began is never taken for a stale one.
        this.testFiles = new TestFiles(settings.reportDir(), new TestJsonWriter(jsonFactory), files,
                ledger.startedAtMillis() - STALE_MARGIN_MILLIS, warnings);
        this.runFiles = new RunFiles(settings, jsonFactory, index, regressions, files, warnings, CLOSE_WAIT_MINUTES);
        this.sessionConsole = new SessionConsole(settings.console(), console, jsonFactory, regressions::showsVerdicts);
    }

    public ReportSettings settings() {
        return settings;
    }

    /**
     * Compares the test's figures with the baseline. Call it before deciding the outcome: when
     * {@link RegressionVerdict#failsTest()} is true, fail the test with {@link RegressionVerdict#message()};
     * otherwise log {@link RegressionVerdict#lines()} if any. Without a configured baseline the verdict is empty.
     */
    public synchronized RegressionVerdict compare(TestResult result) {
        changes++;
        RegressionVerdict verdict = regressions.compare(result);
        verdicts.put(result.uniqueId(), verdict);
        return verdict;
    }

    /**
     * Remembers the finished test and has its JSON written on the report thread; in {@code json} console mode also
     * prints its line, here, so that lines keep the order of the tests.
     *
     * @return completes with the written JSON file (for {@code ExtensionContext.publishFile}), or empty if it could
     *     not be written; {@link #close()} waits for it in any case
     */
    public CompletableFuture<Optional<Path>> testFinished(TestResult result) {
        Map<HistoryKey, BudgetSuggester.Builds> suggestionInputs;
        Path file;
        synchronized (this) {
            changes++;
            // taken in the order the tests finish; the suggestions themselves are worked out on the report thread
            suggestionInputs = HistorySuggestions.inputs(regressions.history(), result);
            RegressionVerdict verdict = Optional.ofNullable(verdicts.remove(result.uniqueId()))
                    .orElseGet(() -> regressions.compare(result));
            String relative = testFiles.pathFor(result);
            RunReport.Entry entry = new RunReport.Entry(result, relative, verdict, settings.expectedToFailBy());
            entries.remove(result.uniqueId());
            entries.put(result.uniqueId(), entry);
            if (settings.expectedToFailBy().isEmpty()) {
                // a fixture another test runs to see it fail is no build of anything: its figures stay out
                regressions.history().record(result);
            }
            sessionConsole.testFinished(entry);
            file = settings.reportDir().resolve(relative);
        }
        CompletableFuture<Optional<Path>> written = new CompletableFuture<>();
        onReportThread(() -> {
            try {
                Optional<Path> json = testFiles.write(result, HistorySuggestions.suggest(suggestionInputs), file);
                json.ifPresent(path -> onDisk.add(result.uniqueId()));
                written.complete(json);
            } catch (RuntimeException e) {
                warnings.accept("Failed to write the JSON report of " + result.uniqueId() + ": " + e);
            } finally {
                // whatever happened, a test waiting to attach its file must not wait forever
                written.complete(Optional.empty());
            }
        }, () -> written.complete(Optional.empty()));
        return written;
    }

    /**
     * Runs {@code task} on the report thread, started on first use; once the session is closed, runs
     * {@code whenClosed} instead, on the caller's thread.
     */
    private void onReportThread(Runnable task, Runnable whenClosed) {
        synchronized (this) {
            if (!closed) {
                if (reportThread == null) {
                    reportThread = new ReportQueue("vitals-report-writer", BATCH_DELAY, warnings);
                }
                reportThread.add(task);
                return;
            }
        }
        whenClosed.run();
    }

    /** Prints the class's table (in {@code table} mode) with its baseline findings, and rewrites the run index. */
    public synchronized void classFinished(String className) {
        sessionConsole.classFinished(className, entries.values().stream()
                .filter(e -> e.result().className().equals(className)).toList());
        scheduleIndexWrite();
    }

    /**
     * Rewrites the run index on the report thread. The index holds every test so far, so rendering it after each
     * class on the test thread would cost O(tests) per class (about 14 ms at 1,000 tests, 140 ms at 10,000); here
     * the test goes on at once, and requests that pile up while one write runs are served by one write.
     */
    private void scheduleIndexWrite() {
        if (closed || indexWritePending) {
            return;
        }
        indexWritePending = true;
        onReportThread(() -> {
            RunReport run;
            synchronized (this) {
                indexWritePending = false;
                if (closed || prepared != null) {
                    // close() writes the final index; a prepared close has written it already (its JVM is alone in
                    // its run, so no other JVM waits for this one's part, which close() writes too)
                    return;
                }
                // only tests whose JSON is on disk: this is also this JVM's part, which other JVMs read
                run = report(entries.values().stream().filter(e -> onDisk.contains(e.result().uniqueId()))
                        .collect(Collectors.toList()));
            }
            byte[] rendered;
            try {
                rendered = index.write(run);
            } catch (RuntimeException e) {
                warnings.accept("Failed to render " + INDEX_FILE + ": " + e);
                return;
            }
            synchronized (this) {
                if (!closed) {
                    // this JVM's part of the run, for the others; the index itself only while it is the whole run
                    // (the run-wide files of several JVMs are written when each closes, from every part) and no
                    // close, prepared while this one rendered, has written the final one
                    writePart(rendered);
                    if (ledger.alone() && prepared == null) {
                        files.write(settings.reportDir().resolve(INDEX_FILE), () -> rendered);
                    }
                }
            }
        }, () -> { });
    }

    /** Waits until the test files and index rewrites asked for so far are on disk; for tests. */
    void awaitBackgroundWrites() throws InterruptedException, java.util.concurrent.ExecutionException {
        ReportQueue writer;
        synchronized (this) {
            writer = reportThread;
        }
        if (writer != null) {
            writer.await();
        }
    }

    /**
     * Has the test files handed over so far written without waiting for the rest of their batch: for a caller
     * about to wait for one ({@code vitals.publishJson}).
     */
    public synchronized void writeQueuedFilesNow() {
        if (reportThread != null && !closed) {
            reportThread.runSoon();
        }
    }

    /** The directory reports go to. */
    public Path reportDir() {
        return settings.reportDir();
    }

    /**
     * Has the run-wide report files written now, on a thread of their own, when no test is left to run in this JVM:
     * they are then rendered while the last class's containers stop, not after. {@link #close()} keeps them when
     * nothing has changed since, and writes them again otherwise; the stored files (the run history, the baseline)
     * are updated at the close in either case. Only for a JVM alone in its run: with other JVMs (forks) the files
     * are written at the close, under the run's lock, from every JVM's part. Later calls do nothing.
     */
    public void prepareClose() {
        CompletableFuture<byte[]> ownIndex = new CompletableFuture<>();
        RunFiles.Snapshot snapshot;
        synchronized (this) {
            if (closed || prepared != null || !ledger.alone()) {
                return;
            }
            snapshot = snapshot(List.of());
            prepared = new Prepared(changes, snapshot, ownIndex);
        }
        Thread thread = new Thread(() -> {
            try {
                // under the run's lock, as at the close: a JVM of the same run that joins meanwhile waits for it
                ownIndex.complete(ledger.whileLocked(() -> runFiles.writeReports(snapshot)));
            } catch (RuntimeException | Error e) {
                warnings.accept("Failed to write the run's reports ahead of the close: " + e
                        + "; they are written at the close");
                ownIndex.completeExceptionally(e);
            }
        }, "vitals-report-prepare");
        thread.setDaemon(true); // close() waits for it; a JVM that exits without closing leaves the files as they are
        thread.start();
    }

    /** Writes the run-wide reports and, if asked, the updated baseline. Later calls do nothing. */
    @Override
    public void close() {
        ReportQueue writer;
        Prepared ahead;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            writer = reportThread;
            reportThread = null;
            ahead = prepared;
        }
        if (writer != null) {
            writer.finish(); // it takes nothing more, and writes the test files handed over at once
        }
        // before the lock, which the prepared writing holds while it runs
        Optional<byte[]> preparedIndex = ahead == null ? Optional.empty() : awaitPrepared(ahead);
        // Under the run's lock: the other JVMs of this run (forks) read and write the same run-wide files, and
        // whichever closes last must see every part, this one's included.
        ledger.whileLocked(() -> {
            // The run-wide files do not read this JVM's test files, so they are rendered while the report thread
            // still writes them: at 10,000 tests the report thread spent half its time waiting on file creation
            // and renames, which the rendering now fills. No index rewrite can land after the final index: a
            // rewrite writes only while the session is open, under the same lock that closed it.
            byte[] ownIndex;
            if (preparedIndex.isPresent() && ledger.alone()) {
                ownIndex = preparedIndex.get();
                runFiles.updateStored(ahead.snapshot());
            } else {
                ownIndex = runFiles.write(snapshot(OtherJvms.entries(ledger, settings.reportDir(), warnings)),
                        !ledger.alone());
            }
            if (writer != null) {
                // every test file handed over is written before close() returns: a JVM that exits normally loses
                // none, and the part below names only files that exist
                try {
                    if (!writer.awaitFinished(Duration.ofMinutes(CLOSE_WAIT_MINUTES))) {
                        warnings.accept("The report thread did not finish within " + CLOSE_WAIT_MINUTES
                                + " minutes; some per-test JSON files may be missing");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            writePart(ownIndex);
            return null;
        });
    }

    /** The prepared files' index once they are written, if nothing changed since their snapshot; else empty. */
    private Optional<byte[]> awaitPrepared(Prepared ahead) {
        try {
            byte[] ownIndex = ahead.ownIndex().get(CLOSE_WAIT_MINUTES, TimeUnit.MINUTES);
            synchronized (this) {
                return changes == ahead.at() ? Optional.of(ownIndex) : Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty(); // said when it failed; a hung one is written over
        }
    }

    private void writePart(byte[] ownIndex) {
        try {
            ledger.writePart(ownIndex);
        } catch (IOException e) {
            warnings.accept("Cannot write this JVM's part of the run to " + settings.reportDir().resolve(RunLedger.DIR)
                    + " (" + e + "); other JVMs of this run will not list its tests");
        }
    }

    /**
     * What the run-wide files are made of: a snapshot under the lock, so that the report thread goes on while they
     * are rendered. Of a test run twice, only the attempt the reports keep counts in the history.
     */
    private synchronized RunFiles.Snapshot snapshot(List<RunReport.Entry> others) {
        RunReport own = report();
        List<RunReport.Entry> all = others.isEmpty() ? List.of() : OtherJvms.withOwn(others, entries.values());
        RunReport run = others.isEmpty() ? own : report(all);
        Set<String> ownIds = entries.keySet();
        History withThisRun = regressions.withThisRun(all.stream().filter(e -> e.expectedToFailBy().isEmpty())
                .map(RunReport.Entry::result).filter(result -> !ownIds.contains(result.uniqueId())).toList());
        List<TestResult> results = entries.values().stream().map(RunReport.Entry::result).collect(Collectors.toList());
        return new RunFiles.Snapshot(own, run, !others.isEmpty(), withThisRun, results);
    }

    /** The run as the writers see it: every finished test so far. */
    public synchronized RunReport report() {
        return report(new ArrayList<>(entries.values()));
    }

    private synchronized RunReport report(List<RunReport.Entry> tests) {
        return new RunReport(clock.instant(), tests, regressions.summary(tests));
    }
}
