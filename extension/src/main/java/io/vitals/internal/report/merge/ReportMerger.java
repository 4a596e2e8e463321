package io.vitals.internal.report.merge;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.files.AtomicFiles;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryException;
import io.vitals.internal.regression.history.HistoryFile;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.HistorySession;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.regression.suggest.HistorySuggestions;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.IndexReader;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.SuggestedBudgetsJson;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apiguardian.api.API;

/**
 * Merges the report directories of several shards (or Maven modules) into one: the per-test JSON files are copied
 * as they are, and the run index, HTML page, summary, Prometheus file, suggested budgets and history are rebuilt
 * from them with the same writers a single run uses, so the result reads as if one runner had run every test.
 *
 * <p>Approach: everything is read and checked first, and only then is anything written, so bad input (a corrupt
 * file, an incompatible history, two shards that disagree about a test) leaves the output untouched. Tests keep
 * their shard's order, shards the order given; each test keeps the baseline verdict its shard decided.
 */
@API(status = INTERNAL, since = "0.1")
public final class ReportMerger {

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonFactory factory = new JsonFactory();
    private final HistoryFile historyFile = new HistoryFile(mapper);
    private final PrometheusSeries prometheusSeries;

    /** A merger whose {@code vitals.prom} has the default series ({@link ReportSettings#DEFAULT_PROMETHEUS_SERIES}). */
    public ReportMerger() {
        this(ReportSettings.DEFAULT_PROMETHEUS_SERIES);
    }

    /** @param prometheusSeries which tests get their own series in the merged {@code vitals.prom} */
    public ReportMerger(PrometheusSeries prometheusSeries) {
        this.prometheusSeries = prometheusSeries;
    }

    /** What a merge wrote. */
    public record Result(int tests, int shards, Optional<History> history) {
    }

    private record Test(Path shard, String jsonPath, byte[] json, TestResult result, RunReport.Entry entry) {
    }

    /** What the shards hold, read and checked: nothing is written before all of it is. */
    private record Inputs(List<Test> tests, List<RunReport.BaselineSummary> baselines, Optional<History> history,
            Optional<SuggestedBudgetsWriter.HistoryNote> note) {
    }

    /**
     * Merges {@code shards} into {@code out}; with {@code historyOut}, also writes the merged history there.
     *
     * @throws IOException naming file, line (where there is one) and rule, before anything is written
     */
    public Result merge(List<Path> shards, Path out, Optional<Path> historyOut, Instant generatedAt)
            throws IOException {
        checkDirectories(shards, out);
        Inputs inputs = read(shards);
        // Everything read and checked: now write.
        List<RunReport.Entry> entries = copyTestFiles(inputs.tests(), out);
        RunReport run = new RunReport(generatedAt, entries, mergeBaselines(inputs.baselines()));
        writeRunFiles(run, inputs, out);
        writeHistory(inputs.history(), out, historyOut);
        return new Result(entries.size(), shards.size(), inputs.history());
    }

    private static void checkDirectories(List<Path> shards, Path out) throws IOException {
        if (shards.isEmpty()) {
            throw new IOException("nothing to merge: name at least one report directory");
        }
        for (Path shard : shards) {
            if (shard.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize())) {
                throw new IOException(out + ": the output directory must not be one of the inputs, so that no "
                        + "input is overwritten");
            }
        }
    }

    /** Reads every shard in the order given, each one whole (index, history, history note) before the next. */
    private Inputs read(List<Path> shards) throws IOException {
        Map<String, Test> byId = new LinkedHashMap<>();
        Map<String, Test> byPath = new TreeMap<>();
        List<RunReport.BaselineSummary> baselines = new ArrayList<>();
        ShardHistories histories = new ShardHistories();
        Optional<SuggestedBudgetsWriter.HistoryNote> note = Optional.empty();
        IndexReader reader = new IndexReader(mapper);
        for (Path shard : shards) {
            IndexReader.Index index = reader.read(shard.resolve(ReportSession.INDEX_FILE), shard);
            readBaseline(index.root().get("baseline")).ifPresent(baselines::add);
            for (IndexReader.Test read : index.tests()) {
                add(new Test(shard, read.jsonPath(), read.json(), read.result(), read.entry()), read.where(), byId,
                        byPath);
            }
            histories.read(shard);
            if (note.isEmpty()) {
                note = readNote(shard);
            }
        }
        return new Inputs(List.copyOf(byId.values()), baselines, histories.merged(), note);
    }

    /** Copies each test's JSON file as it is; the entries keep the shards' order. */
    private static List<RunReport.Entry> copyTestFiles(List<Test> tests, Path out) throws IOException {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (Test test : tests) {
            AtomicFiles.write(out.resolve(test.jsonPath()), test.json());
            entries.add(test.entry());
        }
        return entries;
    }

    /** The run-wide files, rebuilt with the writers a single run uses. */
    private void writeRunFiles(RunReport run, Inputs inputs, Path out) throws IOException {
        List<BudgetSuggestion> suggestions = inputs.history().map(ReportMerger::suggestions).orElse(List.of());
        SuggestedBudgetsWriter.HistoryNote historyNote = inputs.note().orElseGet(
                () -> new SuggestedBudgetsWriter.HistoryNote(Optional.empty(), 20, 0.05, Optional.empty()));
        AtomicFiles.write(out.resolve(ReportSession.INDEX_FILE), new RunIndexWriter(factory).write(run));
        AtomicFiles.write(out.resolve(ReportSession.HTML_FILE), new HtmlReport().write(run));
        AtomicFiles.write(out.resolve(ReportSession.SUMMARY_FILE), new MarkdownSummary().write(run)
                + SuggestedBudgetsWriter.summarySection(historyNote, suggestions));
        AtomicFiles.write(out.resolve(ReportSession.PROMETHEUS_FILE), new PrometheusWriter(prometheusSeries).write(run));
        AtomicFiles.write(out.resolve(SuggestedBudgetsWriter.MARKDOWN_FILE), SuggestedBudgetsWriter.markdown(
                suggestions));
        AtomicFiles.write(out.resolve(SuggestedBudgetsWriter.JSON_FILE), SuggestedBudgetsJson.write(factory,
                historyNote, suggestions));
    }

    /** The merged history, beside the reports and, with {@code historyOut}, there too. */
    private void writeHistory(Optional<History> history, Path out, Optional<Path> historyOut) throws IOException {
        if (history.isEmpty()) {
            return;
        }
        AtomicFiles.write(out.resolve(HistorySession.FILE), historyFile.toText(history.get()));
        if (historyOut.isPresent()) {
            historyFile.write(historyOut.get(), history.get());
        }
    }

    /** The shards' histories, merged in the order read; a conflict names both files and the key. */
    private final class ShardHistories {

        private History merged;
        private HistoryFile.Loaded first;

        void read(Path shard) throws IOException {
            Path file = shard.resolve(HistorySession.FILE);
            if (!Files.exists(file)) {
                return;
            }
            HistoryFile.Loaded loaded = historyFile.read(file);
            if (merged == null) {
                merged = loaded.history();
                first = loaded;
                return;
            }
            try {
                merged = merged.merge(loaded.history());
            } catch (IllegalStateException e) {
                HistoryKey key = conflictKey(merged, loaded.history());
                throw new HistoryException(loaded.where(key) + " and " + first.where(key) + ": " + e.getMessage());
            }
        }

        Optional<History> merged() {
            return Optional.ofNullable(merged);
        }
    }

    /** Adds a shard's test, or keeps one copy of a test two shards hold identically; names any conflict. */
    private static void add(Test test, String where, Map<String, Test> byId, Map<String, Test> byPath)
            throws IOException {
        TestResult result = test.result();
        Test sameId = byId.get(result.uniqueId());
        Test samePath = byPath.get(test.jsonPath());
        if (sameId != null) {
            if (!sameId.result().className().equals(result.className())
                    || !sameId.result().displayName().equals(result.displayName())
                    || !sameId.result().methodName().equals(result.methodName())) {
                throw new IOException(where + ": shards disagree about the identity of test "
                        + result.uniqueId() + ": " + describe(sameId.result()) + " in " + sameId.shard()
                        + ", " + describe(result) + " here; one unique id must name one test");
            }
            if (!Arrays.equals(sameId.json(), test.json())) {
                throw new IOException(where + ": test " + result.uniqueId() + " ran in two shards with "
                        + "different results (" + sameId.shard().resolve(sameId.jsonPath()) + " and "
                        + test.shard().resolve(test.jsonPath()) + "); a test must run in one shard only");
            }
            return; // the same file twice (a shard given twice, or a copied artifact): kept once
        }
        if (samePath != null && !Arrays.equals(samePath.json(), test.json())) {
            throw new IOException(where + ": the file name " + test.jsonPath() + " is used by "
                    + samePath.result().uniqueId() + " in " + samePath.shard() + " and by "
                    + result.uniqueId() + " here, with different content; rename one of the tests or "
                    + "merge these shards into separate directories");
        }
        byId.put(result.uniqueId(), test);
        byPath.put(test.jsonPath(), test);
    }

    private static String describe(TestResult result) {
        return result.className() + " '" + result.displayName() + "'";
    }

    private static Optional<RunReport.BaselineSummary> readBaseline(JsonNode b) {
        if (b == null || b.isNull()) {
            return Optional.empty();
        }
        List<String> notRun = new ArrayList<>();
        b.path("notRun").forEach(n -> notRun.add(n.asText()));
        return Optional.of(new RunReport.BaselineSummary(b.path("file").asText(), b.path("found").asBoolean(),
                b.path("keptRuns").asInt(), b.path("fewestRuns").asInt(), b.path("mostRuns").asInt(),
                b.path("updating").asBoolean(), "warn".equals(b.path("mode").asText()), notRun,
                "history".equals(b.path("kind").asText())));
    }

    // A baseline entry counts as not run only when no shard ran it.
    private static Optional<RunReport.BaselineSummary> mergeBaselines(List<RunReport.BaselineSummary> all) {
        if (all.isEmpty()) {
            return Optional.empty();
        }
        RunReport.BaselineSummary first = all.get(0);
        Set<String> notRun = new LinkedHashSet<>(first.notRun());
        all.forEach(b -> notRun.retainAll(b.notRun()));
        return Optional.of(new RunReport.BaselineSummary(first.file(), all.stream().allMatch(
                RunReport.BaselineSummary::found), first.keptRuns(), all.stream().mapToInt(
                        RunReport.BaselineSummary::fewestRuns).min().orElse(0), all.stream().mapToInt(
                                RunReport.BaselineSummary::mostRuns).max().orElse(0), first.updating(),
                first.warnOnly(), new ArrayList<>(notRun), first.history()));
    }

    /** How the shard's history was configured, from its suggested budgets' file, if it has one. */
    private Optional<SuggestedBudgetsWriter.HistoryNote> readNote(Path shard) throws IOException {
        Path file = shard.resolve(SuggestedBudgetsWriter.JSON_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode h = mapper.readTree(Files.readAllBytes(file)).path("history");
        return Optional.of(new SuggestedBudgetsWriter.HistoryNote(h.path("file").isTextual() ? Optional.of(h.get("file")
                .asText()) : Optional.empty(), h.path("keep").asInt(20), h.path("alpha").asDouble(0.05),
                h.path("problem").isTextual() ? Optional.of(h.get("problem").asText()) : Optional.empty()));
    }

    private static List<BudgetSuggestion> suggestions(History history) {
        return HistorySuggestions.suggestions(history);
    }

    private static HistoryKey conflictKey(History a, History b) {
        for (HistoryKey key : b.runs().keySet()) {
            try {
                History.empty(1).merge(new History(a.keep(), Map.of(key, a.runs(key))))
                        .merge(new History(b.keep(), Map.of(key, b.runs(key))));
            } catch (IllegalStateException e) {
                return key;
            }
        }
        throw new IllegalStateException("no conflicting key");
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
