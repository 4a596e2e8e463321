package io.vitals.internal.report.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryFile;
import io.vitals.internal.regression.history.Build;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.Measurements;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.json.TestJsonReader;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.run.RunLedger;
import io.vitals.internal.result.TestResult;
import io.vitals.report.MergeReports;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportMergerTests {

    private static final String[] FILES = {"vitals.json", "index.html", "summary.md", "vitals.prom",
        "suggested-budgets.md", "suggested-budgets.json", "vitals-history.jsonl"};

    @TempDir
    Path dir;

    private Path history;
    private List<TestResult> results;

    /** The testbed every run here names, so the earlier builds are theirs. */
    private static final Testbed TESTBED = Testbed.of(Map.of(), Optional.of("ci-runner"), List.of());

    @BeforeEach
    void setUp() throws IOException {
        List<TestResult> fixtures = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String className = i < 3 ? "com.example.TrainTests" : "com.example.ServeTests";
            fixtures.add(i == 4 ? ReportFixtures.oomKilled(className, "m" + i)
                    : ReportFixtures.result(className, "m" + i, Optional.empty(), 1 + i / 10.0));
        }
        // a history of 6 earlier runs of every test, so verdicts, history and suggested budgets are all in play
        History earlier = History.empty(20);
        for (int run = 0; run < 6; run++) {
            for (TestResult fixture : fixtures) {
                Map<HistoryKey, List<Double>> values = new HashMap<>();
                Map<HistoryKey, Testbed> testbeds = new HashMap<>();
                double scale = 1 + run / 100.0;
                Measurements.of(fixture).forEach((k, v) -> {
                    values.put(k, List.of(v * scale));
                    testbeds.put(k, TESTBED);
                });
                earlier = earlier.withRun(Build.of("old-" + run, ReportFixtures.START.minus(Duration.ofDays(10 - run))),
                        values, testbeds);
            }
        }
        history = dir.resolve("history.jsonl");
        new HistoryFile(new ObjectMapper()).write(history, earlier);
        // the inputs are per-test JSON files, read back: both the single run and the shards start from them
        Path seed = run("seed", fixtures);
        TestJsonReader reader = new TestJsonReader(new ObjectMapper());
        results = new ArrayList<>();
        try (Stream<Path> files = Files.walk(seed)) {
            for (Path file : (Iterable<Path>) files.filter(f -> !f.getParent().equals(seed)
                    && f.toString().endsWith(".json"))::iterator) {
                results.add(reader.read(Files.readAllBytes(file), file.toString()));
            }
        }
        results.sort((a, b) -> a.uniqueId().compareTo(b.uniqueId()));
        assertThat(results).hasSize(6);
    }

    private Path run(String name, List<TestResult> tests) {
        Map<String, String> settings = new HashMap<>();
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve(name).toString());
        settings.put(MeasureResources.HISTORY_KEY, history.toString());
        settings.put(MeasureResources.RUN_ID_KEY, "ci-42");
        settings.put(MeasureResources.TESTBED_KEY, TESTBED.id());
        try (ReportSession session = new ReportSession(ReportSettings.from(k -> Optional.ofNullable(settings.get(k))),
                Clock.fixed(ReportFixtures.START, ZoneOffset.UTC), s -> { }, s -> { })) {
            for (TestResult test : tests) {
                session.compare(test);
                session.testFinished(test);
            }
        }
        return dir.resolve(name);
    }

    @Test
    @DisplayName("a test's JSON read back and written again is the same, byte for byte")
    void readerRoundTrip() throws IOException {
        TestResult original = ReportFixtures.oomKilled("com.example.TrainTests", "m4");
        TestJsonWriter writer = new TestJsonWriter(new JsonFactory());
        byte[] json = writer.write(original);

        byte[] again = writer.write(new TestJsonReader(new ObjectMapper()).read(json, "m4.json"));

        assertThat(new String(again, StandardCharsets.UTF_8)).isEqualTo(new String(json, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("two shards merged give the same index, HTML, summary, Prometheus file and history as one run")
    void mergeEqualsOneRun() throws IOException {
        Path all = run("all", results);
        Path shard1 = run("shard1", results.subList(0, 3));
        Path shard2 = run("shard2", results.subList(3, 6));
        Path merged = dir.resolve("merged");

        new ReportMerger().merge(List.of(shard1, shard2), merged, Optional.empty(), ReportFixtures.START);

        for (String file : FILES) {
            assertThat(merged.resolve(file)).as(file).hasSameTextualContentAs(all.resolve(file));
        }
        try (Stream<Path> files = Files.walk(all)) {
            // the run's ledger (which sessions wrote into the directory) is no report, and no merge copies it
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(file -> !all.relativize(file).startsWith(RunLedger.DIR))::iterator) {
                assertThat(merged.resolve(all.relativize(file))).hasSameBinaryContentAs(file);
            }
        }
        String summary = Files.readString(merged.resolve("summary.md"));
        assertThat(summary).startsWith("# Vitals: resource usage\n\n6 tests, 1 failed or aborted.")
                .contains("@ResourceBudget(container = \"tf\"");
    }

    @Test
    @DisplayName("the command merges and writes the history file; a shard given twice counts once")
    void command() throws IOException {
        Path shard1 = run("shard1", results.subList(0, 3));
        Path shard2 = run("shard2", results.subList(3, 6));
        Path merged = dir.resolve("merged");
        Path mergedHistory = dir.resolve("merged-history.jsonl");

        int status = MergeReports.run(new String[] {"--out", merged.toString(), "--history", mergedHistory.toString(),
            shard1.toString(), shard2.toString(), shard1.toString()}, quiet(), quiet());

        assertThat(status).isZero();
        assertThat(new ObjectMapper().readTree(merged.resolve("vitals.json").toFile()).get("testCount").asInt())
                .isEqualTo(6);
        History written = new HistoryFile(new ObjectMapper()).read(mergedHistory).history();
        assertThat(written.runs().keySet().stream().map(HistoryKey::test).distinct()).hasSize(6);
        assertThat(written.runs().values()).allMatch(runs -> runs.size() == 7
                && runs.get(6).id().equals("ci-42"));
    }

    @Test
    @DisplayName("two shards that disagree about a test's identity: an error naming the file, nothing written")
    void identityConflict() throws IOException {
        Path shard1 = run("shard1", results.subList(0, 3));
        TestResult original = results.get(0);
        TestResult renamed = new TestResult(original.uniqueId(), original.className(), original.methodName(),
                "another name", original.parameters(), original.outcome(), original.failureMessage(),
                original.startedAt(), original.duration(), original.containers());
        Path shard2 = run("shard2", List.of(renamed));

        String error = failingMerge(shard1, shard2);

        assertThat(error).contains(shard2.resolve("vitals.json") + " test 1: shards disagree about the identity of "
                + "test " + original.uniqueId() + ": com.example.ServeTests 'm3()' in " + shard1
                + ", com.example.ServeTests 'another name' here");
    }

    @Test
    @DisplayName("the same file name with different content in two shards: an error naming both, nothing written")
    void sameFileDifferentContent() throws IOException {
        Path shard1 = run("shard1", results.subList(0, 1));
        TestResult original = results.get(0);
        TestResult other = new TestResult(original.uniqueId() + "/other", original.className(),
                original.methodName(), original.displayName(), original.parameters(), original.outcome(),
                original.failureMessage(), original.startedAt(), original.duration().plusSeconds(1),
                original.containers());
        Path shard2 = run("shard2", List.of(other));

        String error = failingMerge(shard1, shard2);

        assertThat(error).contains(shard2.resolve("vitals.json") + " test 1: the file name com.example.ServeTests/m3"
                + ".json is used by " + original.uniqueId() + " in " + shard1);
    }

    @Test
    @DisplayName("a corrupt history in a shard: an error naming file, line and rule, nothing written")
    void corruptHistory() throws IOException {
        Path shard1 = run("shard1", results.subList(0, 3));
        Path shard2 = run("shard2", results.subList(3, 6));
        Path file = shard2.resolve("vitals-history.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(4, "{\"test\": 12}");
        Files.write(file, lines);

        String error = failingMerge(shard1, shard2);

        assertThat(error).contains(file + " line 5: \"test\" must be a non-empty string, but is 12");
    }

    @Test
    @DisplayName("a shard history of an incompatible schema version: an error naming file and line 1")
    void incompatibleHistory() throws IOException {
        Path shard1 = run("shard1", results.subList(0, 3));
        Files.writeString(shard1.resolve("vitals-history.jsonl"), "{\"schema\":\"vitals-history/9\",\"keep\":5}\n");

        String error = failingMerge(shard1);

        assertThat(error).contains(shard1.resolve("vitals-history.jsonl") + " line 1: schema 'vitals-history/9' is "
                + "not supported");
    }

    private String failingMerge(Path... shards) {
        Path merged = dir.resolve("merged");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--out", merged.toString()));
        for (Path shard : shards) {
            args.add(shard.toString());
        }
        int status = MergeReports.run(args.toArray(String[]::new), quiet(), new PrintStream(err, true,
                StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(merged).doesNotExist();
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("Vitals: cannot merge: ").contains("Nothing was written.");
        return text;
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
