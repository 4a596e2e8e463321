package io.vitals.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.files.AtomicFiles;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;
import io.vitals.MeasureResources;
import io.vitals.internal.regression.baseline.Baseline;
import io.vitals.internal.regression.baseline.BaselineComparator;
import io.vitals.internal.regression.baseline.BaselineStore;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.console.ConsoleJsonLine;
import io.vitals.internal.report.console.ConsoleTable;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.HistorySession;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.IndexReader;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.report.run.RunIdentity;
import io.vitals.internal.report.run.RunLedger;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * updated baseline while the report thread finishes what it was given, and returns when both are done.
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
    private final Consumer<String> console;
    private final Consumer<String> warnings;

    private final JsonFactory jsonFactory = new JsonFactory();
    private final TestJsonWriter testJson = new TestJsonWriter(jsonFactory);
    private final RunIndexWriter index = new RunIndexWriter(jsonFactory);
    private final ConsoleJsonLine consoleJson = new ConsoleJsonLine(jsonFactory);

    private final BaselineStore baselineStore;
    private final Baseline baseline;
    private final boolean baselineFound;
    private final BaselineComparator comparator;
    private final HistorySession history;
    private final RunLedger ledger;

    private final Map<String, RunReport.Entry> entries = new LinkedHashMap<>();
    // tests whose JSON the report thread has written: a part names no file that is not there yet
    private final Set<String> onDisk = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<String, RegressionVerdict> verdicts = new HashMap<>();
    private final Map<String, String> pathsById = new HashMap<>();
    private final Set<String> usedPaths = new HashSet<>();
    private final Set<String> clearedDirectories = new HashSet<>();
    // Files older than this were written by an earlier run: the run began when its first JVM joined the ledger.
    // The margin covers coarse file-time resolution, so a file a parallel fork of the same run wrote just after
    // the run began is never taken for a stale one.
    private final long staleBeforeMillis;
    private final AtomicBoolean warnedUnwritable = new AtomicBoolean();
    private boolean closed;
    private boolean indexWritePending;
    private ReportQueue reportThread;

    /** A session printing to {@code System.out} and warning on {@code System.err}. */
    public ReportSession(ReportSettings settings) {
        this(settings, RunIdentity.current(settings.history().runId()), Clock.systemUTC(), System.out::print,
                message -> System.err.println("[vitals] WARNING: " + message));
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
        this.console = console;
        this.warnings = warnings;
        // first, so that every JVM of a forked run shares the run's start (its history id) and its files
        this.ledger = RunLedger.join(settings.reportDir(), run, clock.instant(), warnings);
        this.staleBeforeMillis = ledger.startedAtMillis() - STALE_MARGIN_MILLIS;
        // an unreadable baseline is never overwritten; BaselineStore decides, warns and fails tests in fail mode
        this.baselineStore = BaselineStore.load(settings.baseline(), settings.baselineUpdate(),
                settings.baselineMode() == ReportSettings.BaselineMode.FAIL, warnings);
        this.baseline = baselineStore.baseline();
        this.baselineFound = baselineStore.found();
        this.comparator = baselineStore.comparator(settings.tolerances());
        this.history = new HistorySession(settings.history(), settings.tolerances(),
                settings.baselineMode() == ReportSettings.BaselineMode.FAIL, ledger.startedAt(), warnings);
    }

    public ReportSettings settings() {
        return settings;
    }

    /**
     * Compares the test's figures with the baseline. Call it before deciding the outcome: when
     * {@link RegressionVerdict#failsTest()} is true, fail the test with {@link RegressionVerdict#message()}; otherwise
     * log {@link RegressionVerdict#lines()} if any. Without a configured baseline the verdict is empty.
     */
    public synchronized RegressionVerdict compare(TestResult result) {
        RegressionVerdict verdict = compareQuietly(result);
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
        Map<HistoryKey, List<Double>> suggestionInputs;
        Path file;
        synchronized (this) {
            // taken in the order the tests finish; the suggestions themselves are worked out on the report thread
            suggestionInputs = history.suggestionInputs(result);
            RegressionVerdict verdict = Optional.ofNullable(verdicts.remove(result.uniqueId()))
                    .orElseGet(() -> compareQuietly(result));
            String relative = pathFor(result);
            RunReport.Entry entry = new RunReport.Entry(result, relative, verdict);
            entries.remove(result.uniqueId());
            entries.put(result.uniqueId(), entry);
            history.record(result);
            if (settings.console() == ReportSettings.ConsoleMode.JSON) {
                console.accept(consoleJson.render(entry) + "\n");
            }
            file = settings.reportDir().resolve(relative);
        }
        CompletableFuture<Optional<Path>> written = new CompletableFuture<>();
        onReportThread(() -> {
            try {
                Optional<Path> json = writeTestJson(result, HistorySession.suggest(suggestionInputs), file);
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

    private Optional<Path> writeTestJson(TestResult result, List<BudgetSuggestion> suggested, Path file) {
        byte[] json;
        try {
            json = testJson.write(result, suggested);
        } catch (RuntimeException e) {
            warnings.accept("Failed to render the JSON report of " + result.uniqueId() + ": " + e);
            return Optional.empty();
        }
        synchronized (this) {
            clearStale(file.getParent());
        }
        return write(file, () -> json) ? Optional.of(file) : Optional.empty();
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

    private RegressionVerdict compareQuietly(TestResult result) {
        if (!result.isMeasured()) {
            // nothing measured (failed before, disabled): no figure to compare, and no "not in baseline" either
            return RegressionVerdict.none(ReportNames.testKey(result));
        }
        if (history.configured()) {
            return history.compare(result);
        }
        return settings.baseline().isEmpty() ? RegressionVerdict.none(ReportNames.testKey(result))
                : comparator.compare(result);
    }

    /** The {@code docker stats}-style table of these results (normally one class's). */
    public String consoleTable(List<TestResult> ofOneClass) {
        return new ConsoleTable().render(ofOneClass);
    }

    /**
     * Prints the class's table (in {@code table} mode) with its baseline findings, and rewrites the run index.
     */
    public synchronized void classFinished(String className) {
        List<RunReport.Entry> ofClass = entries.values().stream()
                .filter(e -> e.result().className().equals(className)).collect(Collectors.toList());
        if (settings.console() == ReportSettings.ConsoleMode.TABLE && !ofClass.isEmpty()) {
            StringBuilder out = new StringBuilder("\nVitals: ").append(className).append('\n');
            out.append(consoleTable(ofClass.stream().map(RunReport.Entry::result).collect(Collectors.toList())));
            for (RunReport.Entry entry : ofClass) {
                if (baselineFound || history.configured() && history.problem().isEmpty()) {
                    entry.verdict().lines().forEach(line -> out.append("  ").append(ReportNames.label(entry.result()))
                            .append(": ").append(line).append('\n'));
                }
            }
            console.accept(out.toString());
        }
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
                if (closed) {
                    return; // close() writes the final index
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
                    // (the run-wide files of several JVMs are written when each closes, from every part)
                    writePart(rendered);
                    if (ledger.alone()) {
                        write(settings.reportDir().resolve(INDEX_FILE), () -> rendered);
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
    public void writeQueuedFilesNow() {
        synchronized (this) {
            if (reportThread != null && !closed) {
                reportThread.runSoon();
            }
        }
    }

    /** The directory reports go to. */
    public Path reportDir() {
        return settings.reportDir();
    }

    /** Writes the run-wide reports and, if asked, the updated baseline. Later calls do nothing. */
    @Override
    public void close() {
        ReportQueue writer;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            writer = reportThread;
            reportThread = null;
        }
        if (writer != null) {
            writer.finish(); // it takes nothing more, and writes the test files handed over at once
        }
        // Under the run's lock: the other JVMs of this run (forks) read and write the same run-wide files, and
        // whichever closes last must see every part, this one's included.
        ledger.whileLocked(() -> {
            // The run-wide files do not read this JVM's test files, so they are rendered while the report thread
            // still writes them: at 10,000 tests the report thread spent half its time waiting on file creation
            // and renames, which the rendering now fills. No index rewrite can land after the final index: a
            // rewrite writes only while the session is open, under the same lock that closed it.
            byte[] ownIndex = writeRunFiles(otherJvmsEntries());
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

    private void writePart(byte[] ownIndex) {
        try {
            ledger.writePart(ownIndex);
        } catch (IOException e) {
            warnings.accept("Cannot write this JVM's part of the run to " + settings.reportDir().resolve(RunLedger.DIR)
                    + " (" + e + "); other JVMs of this run will not list its tests");
        }
    }

    /**
     * The tests the other JVMs of this run (forks) finished so far, read from their parts; a part that cannot be
     * read is named in a warning, never dropped in silence.
     */
    private List<RunReport.Entry> otherJvmsEntries() {
        List<RunReport.Entry> others = new ArrayList<>();
        IndexReader reader = new IndexReader(new ObjectMapper());
        for (Path part : ledger.otherParts()) {
            try {
                reader.readAvailable(part, settings.reportDir(), warnings).tests()
                        .forEach(test -> others.add(test.entry()));
            } catch (IOException | RuntimeException e) {
                warnings.accept("Cannot read another JVM's part of this run, " + part + " (" + e.getMessage()
                        + "); its tests are missing from the run-wide reports");
            }
        }
        return others;
    }

    /**
     * Writes the run-wide files side by side on a pool of one thread per core, created here and gone when they are
     * written: at 10,000 tests the page alone took 4.6 s and the rest 2.9 s one after the other
     * (ReportWritingBenchmark). Each format reads the same snapshot of the run, and each file is still written
     * atomically on its own.
     */
    private byte[] writeRunFiles(List<RunReport.Entry> others) {
        RunReport own;
        RunReport run;
        History withThisRun;
        List<TestResult> results;
        // a snapshot under the lock; the rendering runs outside it, so the report thread can go on meanwhile
        synchronized (this) {
            own = report();
            List<RunReport.Entry> all = others.isEmpty() ? List.of() : withOthers(others);
            run = others.isEmpty() ? own : report(all);
            // the history with this run added is built once for the suggestions, the report copy and the update;
            // of a test run twice, only the attempt the reports keep counts
            Set<String> ownIds = entries.keySet();
            withThisRun = history.withThisRun(all.stream().map(RunReport.Entry::result)
                    .filter(result -> !ownIds.contains(result.uniqueId())).toList());
            results = entries.values().stream().map(RunReport.Entry::result).collect(Collectors.toList());
        }
        byte[] ownIndex = others.isEmpty() ? null : index.write(own);
        Path dir = settings.reportDir();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(4, Runtime.getRuntime().availableProcessors()),
                task -> {
                    Thread thread = new Thread(task, "vitals-report-close-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        CompletableFuture<byte[]> runIndex = CompletableFuture.supplyAsync(() -> writeIndex(run), pool);
        try {
            List<CompletableFuture<?>> written = List.of(runIndex,
                    CompletableFuture.runAsync(() -> write(dir.resolve(PROMETHEUS_FILE),
                            () -> bytes(new PrometheusWriter().write(run))), pool),
                    CompletableFuture.runAsync(() -> writeSummaryAndSuggestions(run, withThisRun, dir), pool),
                    CompletableFuture.runAsync(() -> {
                        history.reportCopy(withThisRun).ifPresent(text -> write(dir.resolve(HistorySession.FILE),
                                () -> bytes(text)));
                        history.update(withThisRun).ifPresent(warnings);
                    }, pool));
            // rendered on this thread, its chunks on the pool: no pool thread ever waits for another
            write(dir.resolve(HTML_FILE), () -> bytes(new HtmlReport().write(run, pool)));
            for (CompletableFuture<?> file : written) {
                try {
                    file.join();
                } catch (CompletionException e) {
                    // a bug in one writer must not cost the other reports or the tests
                    warnings.accept("Failed to write the run's reports: " + e.getCause());
                }
            }
        } finally {
            // chunks of a page whose rendering failed may still run: no thread outlives the run's reports
            pool.shutdown();
            try {
                if (!pool.awaitTermination(CLOSE_WAIT_MINUTES, TimeUnit.MINUTES)) {
                    pool.shutdownNow();
                }
            } catch (InterruptedException e) {
                pool.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        // another JVM of this run may have updated the file since this one read it: read it again
        baselineStore.update(results, settings.baselineRuns(), !ledger.alone()).ifPresent(warnings);
        if (ownIndex == null) {
            ownIndex = runIndex.getNow(null);
        }
        return ownIndex == null ? index.write(own) : ownIndex;
    }

    private void writeSummaryAndSuggestions(RunReport run, History withThisRun, Path dir) {
        List<BudgetSuggestion> suggestions = history.suggestions(withThisRun);
        String historySection = SuggestedBudgetsWriter.summarySection(settings.history(), history.problem(),
                suggestions);
        write(dir.resolve(SUMMARY_FILE), () -> bytes(new MarkdownSummary().write(run) + historySection));
        write(dir.resolve(SuggestedBudgetsWriter.MARKDOWN_FILE), () -> bytes(SuggestedBudgetsWriter.markdown(
                suggestions)));
        write(dir.resolve(SuggestedBudgetsWriter.JSON_FILE), () -> SuggestedBudgetsWriter.json(jsonFactory,
                SuggestedBudgetsWriter.HistoryNote.of(settings.history(), history.problem()), suggestions));
    }

    /** The run as the writers see it: every finished test so far. */
    public synchronized RunReport report() {
        return report(new ArrayList<>(entries.values()));
    }

    /**
     * This session's tests and those of the other sessions of its run, in the order they finished. A test run
     * twice (Surefire's {@code rerunFailingTestsCount} reruns it in a second session) is kept once, as its last
     * attempt ended, as Surefire's XML keeps it: the figures and outcome of that attempt.
     */
    private List<RunReport.Entry> withOthers(List<RunReport.Entry> others) {
        Map<String, RunReport.Entry> last = new LinkedHashMap<>();
        for (RunReport.Entry entry : others) {
            last.merge(entry.result().uniqueId(), entry, ReportSession::later);
        }
        entries.values().forEach(entry -> last.merge(entry.result().uniqueId(), entry, ReportSession::later));
        List<RunReport.Entry> ordered = new ArrayList<>(last.values());
        ordered.sort(Comparator.comparing(ReportSession::endedAt));
        return ordered;
    }

    private static java.time.Instant endedAt(RunReport.Entry entry) {
        return entry.result().startedAt().plus(entry.result().duration());
    }

    private static RunReport.Entry later(RunReport.Entry a, RunReport.Entry b) {
        return endedAt(b).isBefore(endedAt(a)) ? a : b;
    }

    private synchronized RunReport report(List<RunReport.Entry> tests) {
        Optional<RunReport.BaselineSummary> summary = settings.baseline().map(file -> {
            Set<String> run = tests.stream().map(e -> ReportNames.testKey(e.result()))
                    .collect(Collectors.toSet());
            List<String> notRun = new ArrayList<>(new TreeSet<>(baseline.tests().keySet()));
            notRun.removeAll(run);
            IntSummaryStatistics held = baseline.tests().values().stream().flatMap(c -> c.values().stream())
                    .flatMap(m -> m.values().stream()).mapToInt(List::size).summaryStatistics();
            return new RunReport.BaselineSummary(file.toString(), baselineFound, settings.baselineRuns(),
                    held.getCount() == 0 ? 0 : held.getMin(), held.getCount() == 0 ? 0 : held.getMax(),
                    settings.baselineUpdate(), settings.baselineMode() == ReportSettings.BaselineMode.WARN, notRun);
        });
        if (summary.isEmpty() && history.configured()) {
            summary = Optional.of(historySummary());
        }
        return new RunReport(clock.instant(), tests, summary);
    }

    /** The run history stands where a baseline would: the index then carries each test's verdict. */
    private RunReport.BaselineSummary historySummary() {
        IntSummaryStatistics held = history.loaded().runs().values().stream().mapToInt(List::size)
                .summaryStatistics();
        return new RunReport.BaselineSummary(settings.history().file().map(Path::toString).orElse(""),
                history.problem().isEmpty() && held.getCount() > 0, settings.history().keep(),
                held.getCount() == 0 ? 0 : held.getMin(), held.getCount() == 0 ? 0 : held.getMax(),
                settings.history().update(), settings.history().update(), List.of());
    }

    private byte[] writeIndex(RunReport run) {
        byte[] rendered = index.write(run);
        write(settings.reportDir().resolve(INDEX_FILE), () -> rendered);
        return rendered;
    }

    // Unique per test: a second test whose name makes the same file gets "-2", "-3", ...
    private String pathFor(TestResult result) {
        String known = pathsById.get(result.uniqueId());
        if (known != null) {
            return known;
        }
        String dir = ReportNames.classDirectory(result.className());
        String stem = ReportNames.fileStem(result);
        String candidate = dir + "/" + stem + ".json";
        for (int n = 2; usedPaths.contains(candidate.toLowerCase(java.util.Locale.ROOT)); n++) {
            candidate = dir + "/" + stem + "-" + n + ".json";
        }
        // Compared case-insensitively, since macOS and Windows filesystems are.
        usedPaths.add(candidate.toLowerCase(java.util.Locale.ROOT));
        pathsById.put(result.uniqueId(), candidate);
        return candidate;
    }

    /**
     * Deletes, the first time this session writes into a class's directory, the test JSON files an earlier run
     * left there (a renamed or deleted test), so the directory holds what the index lists. Only that class's
     * directory is touched, and only files older than this session: another module, another plugin execution or a
     * parallel fork writes other directories or newer files.
     */
    private void clearStale(Path classDirectory) {
        if (classDirectory == null || !clearedDirectories.add(classDirectory.toString())
                || !Files.isDirectory(classDirectory)) {
            return;
        }
        try (java.nio.file.DirectoryStream<Path> files = Files.newDirectoryStream(classDirectory, "*.json")) {
            for (Path file : files) {
                String relative = settings.reportDir().relativize(file).toString().replace('\\', '/');
                if (!usedPaths.contains(relative.toLowerCase(java.util.Locale.ROOT)) && Files.isRegularFile(file)
                        && Files.getLastModifiedTime(file).toMillis() < staleBeforeMillis) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            warnings.accept("Could not remove stale reports from " + classDirectory + ": " + e);
        }
    }

    private interface Content {
        byte[] get();
    }

    private boolean write(Path file, Content content) {
        try {
            AtomicFiles.write(file, content.get());
            return true;
        } catch (IOException | UncheckedIOException e) {
            if (warnedUnwritable.compareAndSet(false, true)) {
                warnings.accept("Cannot write Vitals reports to " + settings.reportDir().toAbsolutePath() + " ("
                        + e + "); tests run on, but reports are missing. Set " + MeasureResources.REPORT_DIR_KEY
                        + " to a writable directory. Further write failures are not reported.");
            }
        } catch (RuntimeException e) {
            // A bug in one writer must not cost the other reports or the tests.
            warnings.accept("Failed to write " + file + ": " + e);
        }
        return false;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
