package io.vitals.internal.regression.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.internal.metric.Metric;

import io.vitals.internal.metric.Resource;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.units.DurationParser;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HistoryTests {

    private static final String CLASS = "com.example.TrainTests";
    private final HistoryFile historyFile = new HistoryFile(new ObjectMapper());

    @TempDir
    Path dir;

    /** The testbed the sessions below name ({@code vitals.testbed}), so that the fixtures' builds are theirs. */
    static final Testbed FIXTURE = Testbed.of(Map.of(), Optional.of("fixture"), List.of());

    /** A history of {@code runs} builds of "train" on {@link #FIXTURE}, each scaled by 1 ± 5 % (seeded). */
    static History history(int runs, long seed) {
        Random random = new Random(seed);
        History history = History.empty(20);
        for (int i = 0; i < runs; i++) {
            TestResult result = ReportFixtures.result(CLASS, "train", Optional.empty(),
                    1 + 0.05 * random.nextGaussian());
            Map<HistoryKey, List<Double>> values = new HashMap<>();
            Map<HistoryKey, Testbed> testbeds = new HashMap<>();
            Measurements.of(result).forEach((k, v) -> {
                values.put(k, List.of(v));
                testbeds.put(k, FIXTURE);
            });
            history = history.withRun(Build.of("run-" + i, ReportFixtures.START.minus(Duration.ofDays(runs - i))),
                    values, testbeds);
        }
        return history;
    }

    @Nested
    @DisplayName("the file")
    class FileTests {

        @Test
        @DisplayName("round-trips, with a header and one sorted line per test, container, phase and metric")
        void roundTrip() throws IOException {
            History history = history(3, 1);
            Path file = dir.resolve("history.jsonl");

            historyFile.write(file, history);
            List<String> lines = Files.readAllLines(file);

            assertThat(historyFile.read(file).history()).isEqualTo(history);
            assertThat(lines.get(0)).isEqualTo("{\"schema\":\"vitals-history/2\",\"keep\":20}");
            // the header, every compared metric for the whole test (the fixture's container used a GPU) and every
            // compared metric but the GPU ones for each phase (a phase has no GPU figures: not measured, so not kept)
            long compared = Metric.compared().size();
            long comparedWithoutGpu = Metric.compared().stream().filter(m -> m.resource() != Resource.GPU).count();
            int phases = ReportFixtures.result(CLASS, "train").containers().get(0).usage().phases().size();
            assertThat(compared).isGreaterThan(comparedWithoutGpu).isGreaterThan(0);
            assertThat(phases).isPositive();
            // the header, the one testbed, then the keys
            assertThat(lines).hasSize((int) (2 + compared + comparedWithoutGpu * phases));
            assertThat(lines.get(1)).isEqualTo("{\"testbed\":\"fixture\",\"fields\":{},\"identity\":[]}");
            assertThat(lines.subList(2, lines.size())).isSortedAccordingTo((a, b) -> key(a).compareTo(key(b)));
            assertThat(lines.get(2)).startsWith("{\"test\":\"com.example.TrainTests#train\",\"container\":\"tf\","
                    + "\"phase\":\"\",\"metric\":\"averageCpu\",\"runs\":[{\"id\":\"run-0\",\"at\":\"2026-02-26T10:15:30Z\","
                    + "\"testbed\":\"fixture\",\"values\":[");
        }

        @Test
        @DisplayName("is written as a JSON tree per line would write it: escapes, fractions, whole numbers, several runs")
        void sameTextAsATreePerLine() {
            HistoryKey odd = new HistoryKey("com.example.Tests#train [1] \"quoted\" \u00e9t\u00e9 \\ tab\t", "tf",
                    "evaluate", "cpuTime");
            History history = new History(5, Map.of(
                    odd, List.of(new HistoryRun("run-1", ReportFixtures.START, List.of(1.5, 851443712.0, 1e16)),
                            new HistoryRun("run-2", ReportFixtures.START.plusMillis(1), List.of(-0.25, 0.0))),
                    new HistoryKey("a", "b", "", "peakMemory"),
                    List.of(new HistoryRun("run-1", ReportFixtures.START, List.of(3.0e-7, 12.0)))));
            assertThat(historyFile.toText(history)).isEqualTo(asTrees(history));
            assertThat(historyFile.toText(history(3, 1))).isEqualTo(asTrees(history(3, 1)));
        }

        /** The reference: an ObjectNode per line, as the file was written before it was streamed. */
        private String asTrees(History history) {
            ObjectMapper mapper = new ObjectMapper();
            StringBuilder out = new StringBuilder();
            out.append(mapper.createObjectNode().put("schema", HistoryFile.SCHEMA).put("keep", history.keep()))
                    .append('\n');
            history.testbeds().values().forEach(testbed -> {
                com.fasterxml.jackson.databind.node.ObjectNode line = mapper.createObjectNode().put("testbed",
                        testbed.id());
                com.fasterxml.jackson.databind.node.ObjectNode fields = line.putObject("fields");
                testbed.fields().forEach(fields::put);
                com.fasterxml.jackson.databind.node.ArrayNode identity = line.putArray("identity");
                testbed.identity().forEach(identity::add);
                out.append(line).append('\n');
            });
            history.runs().forEach((key, runs) -> {
                com.fasterxml.jackson.databind.node.ObjectNode line = mapper.createObjectNode().put("test", key.test())
                        .put("container", key.container()).put("phase", key.phase()).put("metric", key.metric());
                com.fasterxml.jackson.databind.node.ArrayNode array = line.putArray("runs");
                for (HistoryRun run : runs) {
                    com.fasterxml.jackson.databind.node.ObjectNode object = array.addObject().put("id", run.id())
                            .put("at", run.at().toString());
                    if (!run.testbed().equals(Testbed.UNRECORDED)) {
                        object.put("testbed", run.testbed());
                    }
                    com.fasterxml.jackson.databind.node.ArrayNode values = object.putArray("values");
                    run.values().forEach(v -> {
                        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                            values.add(v.longValue());
                        } else {
                            values.add(v);
                        }
                    });
                }
                out.append(line).append('\n');
            });
            return out.toString();
        }

        private HistoryKey key(String line) {
            try {
                JsonNode node = new ObjectMapper().readTree(line);
                return new HistoryKey(node.get("test").asText(), node.get("container").asText(),
                        node.get("phase").asText(), node.get("metric").asText());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Test
        @DisplayName("a corrupt line: the error names file, line and rule")
        void corruptLine() throws IOException {
            Path file = dir.resolve("history.jsonl");
            historyFile.write(file, history(2, 1));
            List<String> lines = new ArrayList<>(Files.readAllLines(file));
            lines.set(2, lines.get(2).substring(0, 40));
            Files.write(file, lines);

            assertThatThrownBy(() -> historyFile.read(file)).isInstanceOf(HistoryException.class)
                    .hasMessageStartingWith(file + " line 3: each line must be one JSON object, but it does not parse");
        }

        @Test
        @DisplayName("a value that is not a number: the error names file, line and rule")
        void wrongType() throws IOException {
            Path file = dir.resolve("history.jsonl");
            Files.writeString(file, "{\"schema\":\"vitals-history/1\",\"keep\":5}\n"
                    + "{\"test\":\"a#b\",\"container\":\"tf\",\"phase\":\"\",\"metric\":\"cpuTime\",\"runs\":[{\"id\":"
                    + "\"1\",\"at\":\"2026-03-01T10:15:30Z\",\"values\":[\"12s\"]}]}\n");

            assertThatThrownBy(() -> historyFile.read(file)).isInstanceOf(HistoryException.class)
                    .hasMessage(file + " line 2: run '1': \"values\" must hold numbers only, but holds \"12s\"");
        }

        @Test
        @DisplayName("an incompatible schema version: the error names file, line 1 and the version it reads")
        void otherSchema() throws IOException {
            Path file = dir.resolve("history.jsonl");
            Files.writeString(file, "{\"schema\":\"vitals-history/3\",\"keep\":5}\n");

            assertThatThrownBy(() -> historyFile.read(file)).isInstanceOf(HistoryException.class)
                    .hasMessageStartingWith(file + " line 1: schema 'vitals-history/3' is not supported: this version "
                            + "of Vitals reads vitals-history/1 and vitals-history/2");
        }
    }

    @Nested
    @DisplayName("merging")
    class MergeTests {

        @Test
        @DisplayName("is a union of keys; runs join by id, a shared run is kept once, and at most keep runs stay")
        void union() {
            HistoryKey a = new HistoryKey("T#a", "tf", "", "cpuTime");
            HistoryKey b = new HistoryKey("T#b", "tf", "", "cpuTime");
            Instant t = ReportFixtures.START;
            History common = History.empty(3).withRun("1", t, Map.of(a, List.of(1.0), b, List.of(10.0)));
            History shard1 = common.withRun("2", t.plusSeconds(60), Map.of(a, List.of(2.0)));
            History shard2 = common.withRun("2", t.plusSeconds(65), Map.of(b, List.of(20.0)))
                    .withRun("3", t.plusSeconds(120), Map.of(b, List.of(30.0)))
                    .withRun("4", t.plusSeconds(180), Map.of(b, List.of(40.0)));

            History merged = shard1.merge(shard2);

            assertThat(merged.values(a)).containsExactly(1.0, 2.0);
            assertThat(merged.values(b)).containsExactly(20.0, 30.0, 40.0);
            assertThat(shard2.merge(shard1)).isEqualTo(merged);
        }

        @Test
        @DisplayName("one run id with different values in two histories is an error naming key and run")
        void conflict() {
            HistoryKey a = new HistoryKey("T#a", "tf", "", "cpuTime");
            History one = History.empty(3).withRun("7", ReportFixtures.START, Map.of(a, List.of(1.0)));
            History other = History.empty(3).withRun("7", ReportFixtures.START, Map.of(a, List.of(1.5)));

            assertThatThrownBy(() -> one.merge(other)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("run '7' of T#a / tf / cpuTime has the values [1.0] in one history and "
                            + "[1.5] in the other");
        }
    }

    @Nested
    @DisplayName("in a report session")
    class SessionTests {

        private final List<String> warnings = new ArrayList<>();

        private ReportSession session(Path history, boolean update, String runId) {
            Map<String, String> settings = new HashMap<>();
            settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
            settings.put(MeasureResources.HISTORY_KEY, history.toString());
            settings.put(MeasureResources.HISTORY_UPDATE_KEY, Boolean.toString(update));
            settings.put(MeasureResources.RUN_ID_KEY, runId);
            settings.put(MeasureResources.TESTBED_KEY, FIXTURE.id());
            return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))),
                    Clock.fixed(ReportFixtures.START, ZoneOffset.UTC), s -> { }, warnings::add);
        }

        private TestResult repetition(int i, int of, double scale) {
            return ReportFixtures.result(CLASS, "train", Optional.of("repetition " + i + " of " + of), scale);
        }

        @Test
        @DisplayName("5 repetitions 50 % heavier than 10 builds: the last one fails, the build (their median) judged")
        void repeatedRegression() throws IOException {
            Path file = dir.resolve("history.jsonl");
            historyFile.write(file, history(10, 5));
            List<RegressionVerdict> verdicts = new ArrayList<>();

            try (ReportSession session = session(file, false, "new")) {
                Random random = new Random(9);
                for (int i = 1; i <= 5; i++) {
                    TestResult result = repetition(i, 5, 1.5 + 0.05 * random.nextGaussian());
                    verdicts.add(session.compare(result));
                    session.testFinished(result);
                }
            }

            assertThat(verdicts.subList(0, 4)).allMatch(v -> !v.failsTest() && v.findings().isEmpty());
            RegressionVerdict last = verdicts.get(4);
            assertThat(last.failsTest()).isTrue();
            assertThat(last.testKey()).isEqualTo(CLASS + "#train");
            assertThat(last.message()).contains("against the run history (10 earlier builds on testbed fixture (")
                    .containsPattern("cpuTime regressed: \\+\\d+\\.\\d % outside the 99.9 % prediction interval "
                            + "\\[-\\d+\\.\\d %, \\+\\d+\\.\\d %\\], p (< 0\\.001|= 0\\.00\\d) of 10 earlier builds \\(median "
                            + "[0-9.]+ s -> [0-9.]+ s, minimum effect 10 %\\)");
            String summary = Files.readString(dir.resolve("vitals/summary.md"));
            assertThat(summary).contains("**Regression** `" + CLASS + "#train repetition 5 of 5`")
                    .contains("of 10 earlier builds").contains("## Run history");
        }

        @Test
        @DisplayName("one run like the history: nothing flagged (robust z-score), and the history grows by one run")
        void quietRun() throws IOException {
            Path file = dir.resolve("history.jsonl");
            historyFile.write(file, history(10, 5));
            RegressionVerdict verdict;

            try (ReportSession session = session(file, true, "new")) {
                TestResult result = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.02);
                verdict = session.compare(result);
                session.testFinished(result);
            }

            assertThat(verdict.inBaseline()).isTrue();
            assertThat(verdict.findings()).isEmpty();
            HistoryKey cpu = new HistoryKey(CLASS + "#train", "tf", "", "cpuTime");
            History after = historyFile.read(file).history();
            assertThat(after.runs(cpu)).hasSize(11);
            assertThat(after.runs(cpu).get(10).id()).isEqualTo("new");
            assertThat(historyFile.read(dir.resolve("vitals/vitals-history.jsonl")).history()).isEqualTo(after);
        }

        @ParameterizedTest(name = "{0} earlier builds")
        @ValueSource(ints = {1, 4, 5})
        @DisplayName("every figure is judged from 5 earlier builds on the testbed; before, the verdict says how many")
        void figuresWaitForFiveBuilds(int runs) throws IOException {
            Path file = dir.resolve("history.jsonl");
            historyFile.write(file, history(runs, 5));
            RegressionVerdict verdict;

            try (ReportSession session = session(file, false, "new")) {
                TestResult result = ReportFixtures.result(CLASS, "train", Optional.empty(), 2.0);
                verdict = session.compare(result);
                session.testFinished(result);
            }

            List<String> flagged = verdict.findings().stream().filter(f -> f.phase().isEmpty())
                    .map(f -> f.metric().key()).toList();
            if (runs < HistoryComparator.MIN_BUILDS) {
                assertThat(flagged).isEmpty();
                assertThat(verdict.lines()).contains(runs + (runs == 1 ? " earlier build" : " earlier builds")
                        + " on testbed fixture: figures are judged from 5 builds on");
            } else {
                assertThat(flagged).contains("peakMemory", "cpuTime");
            }
        }

        @Test
        @DisplayName("a corrupt history is neither compared nor overwritten, and the summary says why")
        void corruptHistoryKept() throws IOException {
            Path file = dir.resolve("history.jsonl");
            Files.writeString(file, "{\"schema\":\"vitals-history/1\",\"keep\":5}\n{\"test\":\n");
            byte[] before = Files.readAllBytes(file);

            try (ReportSession session = session(file, true, "new")) {
                TestResult result = ReportFixtures.result(CLASS, "train");
                session.compare(result);
                session.testFinished(result);
            }

            assertThat(Files.readAllBytes(file)).isEqualTo(before);
            assertThat(warnings).anyMatch(w -> w.startsWith("History " + file + " line 2: each line must be one JSON"));
            assertThat(Files.readString(dir.resolve("vitals/summary.md"))).contains(":warning: History " + file
                    + " line 2").contains("the file was not updated");
            assertThat(dir.resolve("vitals/vitals-history.jsonl")).doesNotExist();
        }

        @Test
        @DisplayName("suggested budgets: the 99 % prediction bound of 20 builds, in summary.md, suggested-budgets.md and the test JSON")
        void suggestions() throws IOException {
            Path file = dir.resolve("history.jsonl");
            History history = history(19, 5);
            historyFile.write(file, history);
            TestResult result = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.0);

            try (ReportSession session = session(file, false, "new")) {
                session.compare(result);
                session.testFinished(result);
            }

            HistoryKey peak = new HistoryKey(CLASS + "#train", "tf", "", "peakMemory");
            double max = Math.max(history.values(peak).stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                    result.containers().get(0).usage().peakMemory().toBytes());
            JsonNode json = new ObjectMapper().readTree(dir.resolve("vitals/com.example.TrainTests/train.json")
                    .toFile());
            JsonNode budgets = json.get("suggestedBudgets").get("budgets");
            JsonNode peakBudget = find(budgets, "peakMemory");
            assertThat(peakBudget.get("basis").asText()).startsWith("expected to hold in 99 % of unchanged builds on "
                    + "testbed fixture, from 20 builds (highest ");
            assertThat(peakBudget.get("testbed").asText()).isEqualTo("fixture");
            // the fixture's builds spread by 5 %: the bound lies above the highest, and within 25 % of it
            assertThat(DataSize.parse(peakBudget.get("value").asText()).toBytes()).isGreaterThanOrEqualTo(
                    (long) max).isLessThan((long) (max * 1.25));
            assertThat(DurationParser.parse(find(budgets, "cpuTime").get("value").asText())).isPositive();
            String annotation = json.get("suggestedBudgets").get("annotations").get(0).asText();
            assertThat(annotation).startsWith("@ResourceBudget(container = \"tf\", ").contains("peakMemory = \""
                    + peakBudget.get("value").asText() + "\"");
            assertThat(Files.readString(dir.resolve("vitals/summary.md"))).contains(annotation);
            assertThat(Files.readString(dir.resolve("vitals/suggested-budgets.md"))).contains(annotation);
            assertThat(new String(Files.readAllBytes(dir.resolve("vitals/suggested-budgets.json")),
                    StandardCharsets.UTF_8)).contains("\"schema\" : \"vitals-suggested-budgets/1\"");
        }

        private JsonNode find(JsonNode budgets, String attribute) {
            for (JsonNode budget : budgets) {
                if (budget.get("attribute").asText().equals(attribute) && budget.get("phase").asText().isEmpty()) {
                    return budget;
                }
            }
            throw new AssertionError("no suggestion for " + attribute + " in " + budgets);
        }
    }
}
