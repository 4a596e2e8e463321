package io.vitals.internal.report;

import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistorySession;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.regression.suggest.HistorySuggestions;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.SuggestedBudgetsJson;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter;
import io.vitals.internal.result.TestResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonFactory;

/**
 * The run-wide files, written when a session closes: the index, the HTML page, the Markdown summary with the
 * suggested budgets, the Prometheus file, the history's report copy and update, and the updated baseline. A JVM
 * alone in its run may write the report files ahead, when its last test has ended ({@link #writeReports}); the
 * stored files are then updated at the close ({@link #updateStored}).
 *
 * <p>They are written side by side on a pool of one thread per core (at most four), created here and gone when they
 * are written: at 10,000 tests the page alone took 4.6 s and the rest 2.9 s one after the other
 * (ReportWritingBenchmark). Each format reads the same snapshot of the run, and each file is still written
 * atomically on its own.
 */
final class RunFiles {

    /**
     * What the run-wide files are made of, taken under the session's lock; the rendering runs outside it.
     *
     * @param own this JVM's tests
     * @param run the whole run: this JVM's tests and those of the other JVMs of the run
     * @param withOthers whether other JVMs took part, so that {@code own} and {@code run} differ
     * @param withThisRun the history with this run added, built once for the suggestions, the copy and the update
     * @param results this JVM's results, for the baseline's update
     */
    record Snapshot(RunReport own, RunReport run, boolean withOthers, History withThisRun, List<TestResult> results) {
    }

    private final ReportSettings settings;
    private final JsonFactory jsonFactory;
    private final RunIndexWriter index;
    private final RunRegressions regressions;
    private final ReportFiles files;
    private final Consumer<String> warnings;
    private final long waitMinutes;

    /** @param waitMinutes how long to wait for a writer before giving up on the rest: one that long is hung */
    RunFiles(ReportSettings settings, JsonFactory jsonFactory, RunIndexWriter index, RunRegressions regressions,
            ReportFiles files, Consumer<String> warnings, long waitMinutes) {
        this.settings = settings;
        this.jsonFactory = jsonFactory;
        this.index = index;
        this.regressions = regressions;
        this.files = files;
        this.warnings = warnings;
        this.waitMinutes = waitMinutes;
    }

    /**
     * Writes every run-wide file of {@code snapshot}, and then the baseline.
     *
     * @param readBaselineAgain whether another JVM of this run may have updated the baseline since this one read it
     * @return this JVM's part of the run: the index of its own tests
     */
    byte[] write(Snapshot snapshot, boolean readBaselineAgain) {
        byte[] ownIndex = snapshot.withOthers() ? index.write(snapshot.own()) : null;
        CompletableFuture<byte[]> runIndex = writeSideBySide(snapshot.run(), snapshot.withThisRun(), true);
        regressions.updateBaseline(snapshot.results(), readBaselineAgain).ifPresent(warnings);
        if (ownIndex == null) {
            ownIndex = runIndex.getNow(null);
        }
        return ownIndex == null ? index.write(snapshot.own()) : ownIndex;
    }

    /**
     * Writes the report files of a JVM alone in its run, and not the stored files (the run history, the baseline):
     * these keep what they held before as {@code .previous} (StoredFile), which must stay the state before this
     * run however often the reports are written. {@link #updateStored} does them, once.
     *
     * @return the index, which for a JVM alone in its run is also its part
     */
    byte[] writeReports(Snapshot snapshot) {
        byte[] runIndex = writeSideBySide(snapshot.run(), snapshot.withThisRun(), false).getNow(null);
        return runIndex == null ? index.write(snapshot.own()) : runIndex;
    }

    /** Updates the stored files with the run of {@code snapshot}, where the settings ask for it. */
    void updateStored(Snapshot snapshot) {
        regressions.history().update(snapshot.withThisRun()).ifPresent(warnings);
        regressions.updateBaseline(snapshot.results(), false).ifPresent(warnings);
    }

    /** Writes the index and returns what it wrote, so that a JVM alone in its run need not render it twice. */
    byte[] writeIndex(RunReport run) {
        byte[] rendered = index.write(run);
        files.write(settings.reportDir().resolve(ReportSession.INDEX_FILE), () -> rendered);
        return rendered;
    }

    private CompletableFuture<byte[]> writeSideBySide(RunReport run, History withThisRun, boolean updateHistory) {
        Path dir = settings.reportDir();
        ExecutorService pool = pool();
        CompletableFuture<byte[]> runIndex = CompletableFuture.supplyAsync(() -> writeIndex(run), pool);
        try {
            List<CompletableFuture<?>> written = List.of(runIndex,
                    CompletableFuture.runAsync(() -> files.write(dir.resolve(ReportSession.PROMETHEUS_FILE),
                            () -> ReportFiles.bytes(new PrometheusWriter(settings.prometheusSeries()).write(run))), pool),
                    CompletableFuture.runAsync(() -> writeSummaryAndSuggestions(run, withThisRun, dir), pool),
                    CompletableFuture.runAsync(() -> writeHistory(withThisRun, dir, updateHistory), pool));
            // rendered on this thread, its chunks on the pool: no pool thread ever waits for another
            files.write(dir.resolve(ReportSession.HTML_FILE),
                    () -> ReportFiles.bytes(new HtmlReport().write(run, pool)));
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
            shutDown(pool);
        }
        return runIndex;
    }

    private ExecutorService pool() {
        AtomicInteger threads = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.min(4, Runtime.getRuntime().availableProcessors()), task -> {
            Thread thread = new Thread(task, "vitals-report-close-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private void shutDown(ExecutorService pool) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(waitMinutes, TimeUnit.MINUTES)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void writeHistory(History withThisRun, Path dir, boolean update) {
        HistorySession history = regressions.history();
        history.reportCopy(withThisRun).ifPresent(text -> files.write(dir.resolve(HistorySession.FILE),
                () -> ReportFiles.bytes(text)));
        if (update) {
            history.update(withThisRun).ifPresent(warnings);
        }
    }

    private void writeSummaryAndSuggestions(RunReport run, History withThisRun, Path dir) {
        HistorySession history = regressions.history();
        List<BudgetSuggestion> suggestions = HistorySuggestions.suggestions(withThisRun);
        Optional<String> problem = history.problem();
        String historySection = SuggestedBudgetsWriter.summarySection(settings.history(), problem, suggestions);
        files.write(dir.resolve(ReportSession.SUMMARY_FILE),
                () -> ReportFiles.bytes(new MarkdownSummary().write(run) + historySection));
        files.write(dir.resolve(SuggestedBudgetsWriter.MARKDOWN_FILE),
                () -> ReportFiles.bytes(SuggestedBudgetsWriter.markdown(suggestions)));
        files.write(dir.resolve(SuggestedBudgetsWriter.JSON_FILE), () -> SuggestedBudgetsJson.write(jsonFactory,
                SuggestedBudgetsWriter.HistoryNote.of(settings.history(), problem), suggestions));
    }
}
