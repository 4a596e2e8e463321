package io.vitals.internal.regression.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.HistoryContext;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.regression.suggest.HistorySuggestions;
import io.vitals.internal.regression.testbed.MachineFacts;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
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
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history judges like with like: builds of one testbed, a build (not a repetition) as the unit, suggested
 * budgets from a prediction bound, the build where a figure stepped named, and files of the previous schema migrated.
 */
@DisplayName("Run history over builds and testbeds")
class TestbedHistoryTests {

    private static final String CLASS = "com.example.TrainTests";
    private static final String TEST = CLASS + "#train";
    private static final HistoryKey PEAK = new HistoryKey(TEST, "tf", "", "peakMemory");
    private static final HistoryFile FILE = new HistoryFile(new ObjectMapper());

    @TempDir
    Path dir;

    private static MachineFacts machine(int cpus) {
        return new MachineFacts(Optional.of("Test CPU"), OptionalInt.of(cpus), OptionalInt.of(24),
                Optional.of("6.1.0"), Optional.of("24.0.7"));
    }

    private static HistorySession session(Path file, int cpus, Map<String, String> environment, String runId,
            boolean update) {
        return session(file, cpus, environment, runId, update, ReportFixtures.START.plus(Duration.ofDays(30)));
    }

    private static HistorySession session(Path file, int cpus, Map<String, String> environment, String runId,
            boolean update, Instant now) {
        HistorySettings settings = new HistorySettings(Optional.of(file), update, 20, 0.05, Optional.of(runId));
        return new HistorySession(settings, ReportSettings.defaults().tolerances(), true, now, w -> { },
                () -> machine(cpus), environment);
    }

    /** {@code builds} builds of "train", each written by a session on a machine of {@code cpus} CPUs. */
    private void builds(Path file, int cpus, int builds, long seed, double step, int stepAt) {
        Random random = new Random(seed);
        for (int i = 0; i < builds; i++) {
            HistorySettings settings = new HistorySettings(Optional.of(file), true, 20, 0.05, Optional.of("b" + i));
            HistorySession session = new HistorySession(settings, ReportSettings.defaults().tolerances(), true,
                    ReportFixtures.START.plus(Duration.ofDays(i)), w -> { }, () -> machine(cpus),
                    Map.of("GITHUB_SHA", "c0ffee" + i, "GITHUB_REF_NAME", "main"));
            double scale = (i >= stepAt ? step : 1.0) * (1 + 0.01 * random.nextGaussian());
            session.record(ReportFixtures.result(CLASS, "train", Optional.empty(), scale));
            assertThat(session.update(session.withThisRun())).isEmpty();
        }
    }

    @Nested
    @DisplayName("testbeds")
    class Testbeds {

        @Test
        @DisplayName("a build on a 1-CPU runner is not judged against 2-CPU builds: first on its testbed, nearest named")
        void otherTestbedNotJudged() throws IOException {
            Path file = dir.resolve("history.jsonl");
            builds(file, 2, 10, 1, 1, Integer.MAX_VALUE);
            TestResult heavier = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.5);

            RegressionVerdict oneCpu = session(file, 1, Map.of(), "new", false).compare(heavier);
            RegressionVerdict twoCpus = session(file, 2, Map.of(), "new", false).compare(heavier);

            assertThat(oneCpu.findings()).isEmpty();
            assertThat(oneCpu.failsTest()).isFalse();
            assertThat(oneCpu.lines()).singleElement().asString().startsWith("first build on testbed tb-")
                    .contains("(1 CPUs, Test CPU, kernel 6.1.0, cgroup v2, docker 24.0.7, host)")
                    .contains("not compared with builds of other testbeds; nearest: tb-")
                    .contains("which differs in cpus 2 → 1");
            assertThat(twoCpus.findings()).extracting(f -> f.metric().key()).contains("peakMemory", "cpuTime");
            assertThat(twoCpus.failsTest()).isTrue();
            assertThat(twoCpus.message()).contains("against the run history (10 earlier builds on testbed tb-");
        }

        @Test
        @DisplayName("a named testbed, or a folded field, joins builds whose recorded facts differ")
        void namedAndFolded() {
            Map<String, String> a = Map.of("cpus", "2", "cpuModel", "Xeon A", "kernel", "6.1.0");
            Map<String, String> b = Map.of("cpus", "2", "cpuModel", "Xeon B", "kernel", "6.1.0");

            assertThat(Testbed.of(a, Optional.empty(), List.of()).id())
                    .isNotEqualTo(Testbed.of(b, Optional.empty(), List.of()).id());
            assertThat(Testbed.of(a, Optional.empty(), List.of("cpuModel")).id())
                    .isEqualTo(Testbed.of(b, Optional.empty(), List.of("cpuModel")).id());
            assertThat(Testbed.of(a, Optional.of("ci-large"), List.of()).id()).isEqualTo("ci-large");
            assertThat(Testbed.of(a, Optional.of("ci-large"), List.of()).fields()).containsEntry("cpuModel", "Xeon A");
        }

        @Test
        @DisplayName("the build's commit and branch come from the CI's variables, or the settings")
        void commitAndBranch() {
            HistorySettings plain = new HistorySettings(Optional.empty(), false, 20, 0.05, Optional.empty());
            Build github = Build.current("1", ReportFixtures.START, plain,
                    Map.of("GITHUB_SHA", "3f9a0c1d2e", "GITHUB_HEAD_REF", "feature", "GITHUB_REF_NAME", "7/merge"));
            Build gitlab = Build.current("1", ReportFixtures.START, plain,
                    Map.of("CI_COMMIT_SHA", "abc", "CI_COMMIT_REF_NAME", "main"));
            HistorySettings given = new HistorySettings(Optional.empty(), false, 20, 0.05, Optional.empty(),
                    Optional.empty(), List.of(), Optional.of("given"), Optional.empty());

            assertThat(github.commit()).contains("3f9a0c1d2e");
            assertThat(github.branch()).contains("feature");
            assertThat(gitlab.describe()).isEqualTo("build 1 (commit abc, main, 2026-03-01)");
            assertThat(Build.current("1", ReportFixtures.START, given, Map.of("GITHUB_SHA", "x")).commit())
                    .contains("given");
            assertThat(Build.current("1", ReportFixtures.START, plain, Map.of()).describe())
                    .isEqualTo("build 1 (2026-03-01)");
        }
    }

    @Nested
    @DisplayName("builds, not repetitions")
    class BuildsNotRepetitions {

        @Test
        @DisplayName("five repetitions of one build suggest nothing: one build says nothing of the next")
        void repetitionsOfOneBuild() {
            HistorySession session = session(dir.resolve("none.jsonl"), 2, Map.of(), "only", true);
            List<BudgetSuggestion> suggestions = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                TestResult repetition = ReportFixtures.result(CLASS, "train", Optional.of("repetition " + i + " of 5"),
                        1 + i / 100.0);
                suggestions = HistorySuggestions.suggestionsFor(session, repetition);
                session.record(repetition);
            }

            assertThat(suggestions).isEmpty();
            History history = session.withThisRun();
            assertThat(history.runs(PEAK)).singleElement().satisfies(run -> assertThat(run.values()).hasSize(5));
        }

        @Test
        @DisplayName("a build's figure is the median of its repetitions, and five builds of five suggest from 5 builds")
        void buildValueIsTheMedian() throws IOException {
            assertThat(new HistoryRun("r", Instant.EPOCH, "tb", List.of(1.0, 9.0, 2.0, 3.0, 2.5)).buildValue())
                    .isEqualTo(2.5);
            Path file = dir.resolve("history.jsonl");
            for (int b = 0; b < 5; b++) {
                HistorySession session = session(file, 2, Map.of(), "b" + b, true);
                for (int i = 1; i <= 5; i++) {
                    session.record(ReportFixtures.result(CLASS, "train", Optional.of("repetition " + i + " of 5"),
                            1 + (b * 5 + i) / 1000.0));
                }
                assertThat(session.update(session.withThisRun())).isEmpty();
            }

            List<BudgetSuggestion> suggestions = HistorySuggestions.suggestions(FILE.read(file).history());

            assertThat(suggestions).filteredOn(s -> s.attribute().equals("peakMemory") && s.phase().isEmpty())
                    .singleElement().satisfies(s -> {
                        assertThat(s.runs()).isEqualTo(5);
                        assertThat(s.basis()).startsWith("expected to hold in 99 % of unchanged builds on testbed tb-")
                                .contains("from 5 builds");
                    });
        }
    }

    @Nested
    @DisplayName("suggested budgets")
    class Suggestions {

        private final BudgetSuggester suggester = new BudgetSuggester();

        @Test
        @DisplayName("the 99 % prediction bound: above the highest build, tighter as builds add up")
        void predictionBound() {
            Random random = new Random(3);
            List<Double> five = new ArrayList<>();
            List<Double> twenty = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                double value = 100e6 * Math.exp(0.03 * random.nextGaussian());
                if (i < 5) {
                    five.add(value);
                }
                twenty.add(value);
            }
            double boundOfFive = BudgetSuggester.upperBound(five);
            double boundOfTwenty = BudgetSuggester.upperBound(twenty);

            assertThat(boundOfFive).isGreaterThan(five.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            // the same spread: t(0.99, 4) = 3.75 against t(0.99, 19) = 2.54, so twenty builds give a tighter bound
            assertThat(boundOfTwenty / 100e6).isLessThan(boundOfFive / 100e6 + 0.05);
            // for a constant figure the bound is the figure; the suggestion adds the noise floor (1 MiB for memory)
            assertThat(BudgetSuggester.upperBound(List.of(5.0, 5.0, 5.0, 5.0, 5.0))).isCloseTo(5.0,
                    org.assertj.core.api.Assertions.within(1e-9));
        }

        @Test
        @DisplayName("nothing for a figure that was 0 in every build, nor from fewer than 5 builds")
        void noSignalNoSuggestion() {
            HistoryKey sent = new HistoryKey(TEST, "tf", "", "networkSent");
            assertThat(suggester.suggest(sent, new BudgetSuggester.Builds("tb", List.of(0.0, 0.0, 0.0, 0.0, 0.0),
                    OptionalLong.empty()))).isEmpty();
            assertThat(suggester.suggest(PEAK, new BudgetSuggester.Builds("tb", List.of(1e8, 1e8, 1e8, 1e8),
                    OptionalLong.empty()))).isEmpty();
            assertThat(suggester.suggest(PEAK, new BudgetSuggester.Builds("tb", List.of(1e8, 1e8, 1e8, 1e8, 1e8),
                    OptionalLong.empty()))).isPresent();
        }

        @Test
        @DisplayName("memoryHeadroom beside peakMemory for a container with a limit: the share left at the bound")
        void headroom() {
            long limit = 1L << 30;
            List<BudgetSuggestion> suggestions = suggester.suggestAll(PEAK, new BudgetSuggester.Builds("tb",
                    List.of(400e6, 410e6, 405e6, 395e6, 402e6), OptionalLong.of(limit)));

            assertThat(suggestions).extracting(BudgetSuggestion::attribute).containsExactly("peakMemory",
                    "memoryHeadroom");
            BudgetSuggestion headroom = suggestions.get(1);
            double bound = BudgetSuggester.upperBound(List.of(400e6, 410e6, 405e6, 395e6, 402e6));
            assertThat(headroom.baseValue()).isEqualTo(Math.floor(100.0 * (limit - bound) / limit));
            assertThat(headroom.value()).isEqualTo((long) headroom.baseValue() + "%");
            assertThat(Metric.byKey(headroom.attribute())).contains(Metric.MEMORY_HEADROOM);
        }
    }

    @Nested
    @DisplayName("the build where it moved")
    class Steps {

        @Test
        @DisplayName("a 20 % step six builds ago: the verdict names that build and commit, with a trend to chart")
        void stepNamed() throws IOException {
            Path file = dir.resolve("history.jsonl");
            builds(file, 2, 14, 7, 1.2, 8);

            RegressionVerdict verdict = session(file, 2, Map.of(), "new", false)
                    .compare(ReportFixtures.result(CLASS, "train", Optional.empty(), 1.2));

            assertThat(verdict.findings()).isEmpty(); // the new level is the norm by now: no regression of this build
            assertThat(verdict.lines()).anySatisfy(line -> assertThat(line).startsWith("peakMemory stepped +")
                    .contains("at build b8 (commit c0ffee8, main, 2026-03-09) on testbed tb-"));
            HistoryContext.Trend trend = verdict.history().orElseThrow().trends().stream()
                    .filter(t -> t.metric().equals("peakMemory") && t.phase().isEmpty()).findFirst().orElseThrow();
            assertThat(trend.points()).hasSize(15);
            assertThat(trend.step()).hasValueSatisfying(step -> {
                assertThat(step.index()).isEqualTo(8);
                assertThat(step.effectPercent()).isBetween(15.0, 25.0);
            });
        }

        @Test
        @DisplayName("summary.md names build and commit in one line; the HTML draws the trend with the step marked")
        void reports() throws IOException {
            Path file = dir.resolve("history.jsonl");
            builds(file, 2, 14, 7, 1.2, 8);
            Map<String, String> settings = new HashMap<>();
            settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
            settings.put(MeasureResources.HISTORY_KEY, file.toString());
            settings.put(MeasureResources.RUN_ID_KEY, "new");
            // the history's builds were told apart by facts this machine need not share: name what they ran on
            History stored = FILE.read(file).history();
            settings.put(MeasureResources.TESTBED_KEY, stored.testbeds().firstKey());
            try (ReportSession session = new ReportSession(ReportSettings.from(k -> Optional.ofNullable(settings.get(k))),
                    Clock.fixed(ReportFixtures.START.plus(Duration.ofDays(30)), ZoneOffset.UTC), s -> { }, w -> { })) {
                TestResult result = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.2);
                session.compare(result);
                session.testFinished(result);
            }

            String summary = Files.readString(dir.resolve("vitals/summary.md"));
            assertThat(summary).containsPattern("peakMemory stepped \\+\\d+\\.\\d % \\([^)]+\\) at build b8 \\(commit "
                    + "c0ffee8, main, 2026-03-09\\)");
            String html = Files.readString(dir.resolve("vitals/index.html"));
            assertThat(html).contains("<svg class=\"trend\"").contains("class=\"step\"")
                    .contains("step +").contains("at build b8 (commit c0ffee8, main, 2026-03-09)");
        }
    }

    @Nested
    @DisplayName("a history of the previous schema")
    class Migration {

        private final Path fixture = Path.of("src/test/resources/history/vitals-history-1-from-9d29f94.jsonl");

        @Test
        @DisplayName("is read with every value, on no recorded testbed, and written back as schema 2 without loss")
        void migrated() throws IOException {
            History old = FILE.read(fixture).history();
            Path file = dir.resolve("history.jsonl");
            Files.copy(fixture, file);

            HistorySession session = session(file, 2, Map.of(), "ci-4", true, Instant.parse("2026-12-01T10:00:00Z"));
            RegressionVerdict verdict = session.compare(ReportFixtures.result(CLASS, "train",
                    Optional.of("repetition 3 of 3"), 1.0));
            session.record(ReportFixtures.result("com.example.ServeTests", "serve", Optional.empty(), 0.5));
            assertThat(session.update(session.withThisRun())).isEmpty();
            History migrated = FILE.read(file).history();

            assertThat(Files.readAllLines(fixture).get(0)).isEqualTo("{\"schema\":\"vitals-history/1\",\"keep\":20}");
            assertThat(old.runs()).hasSize(Files.readAllLines(fixture).size() - 1);
            assertThat(old.runs().values()).allSatisfy(runs -> assertThat(runs).hasSize(3)
                    .allMatch(run -> run.testbed().equals(Testbed.UNRECORDED)));
            assertThat(Files.readAllLines(file).get(0)).isEqualTo("{\"schema\":\"vitals-history/2\",\"keep\":20}");
            old.runs().forEach((key, runs) -> assertThat(migrated.runs(key)).as(key.toString())
                    .startsWith(runs.toArray(HistoryRun[]::new)));
            // builds written before testbeds were recorded are kept, shown, and judge nothing
            assertThat(verdict.findings()).isEmpty();
            assertThat(verdict.lines()).anySatisfy(line -> assertThat(line).contains("first build on testbed tb-")
                    .contains("nearest: unrecorded (no recorded testbed (written before Vitals recorded testbeds))"));
        }
    }

    @Test
    @DisplayName("findings count the earlier builds of the testbed, not their repetitions")
    void findingsCountBuilds() throws IOException {
        Path file = dir.resolve("history.jsonl");
        builds(file, 2, 6, 11, 1, Integer.MAX_VALUE);
        HistorySession session = session(file, 2, Map.of(), "new", false);
        RegressionVerdict verdict = null;
        for (int i = 1; i <= 5; i++) {
            TestResult repetition = ReportFixtures.result(CLASS, "train", Optional.of("repetition " + i + " of 5"), 1.4);
            verdict = session.compare(repetition);
            session.record(repetition);
        }

        assertThat(verdict.findings()).filteredOn(f -> f.metric() == Metric.PEAK_MEMORY && f.phase().isEmpty())
                .singleElement().extracting(RegressionFinding::runs).isEqualTo(6);
    }

    @Test
    @DisplayName("a fixture its suite expects to fail adds nothing to the history: it is no build of anything")
    void expectedFixturesStayOut() throws IOException {
        Path file = dir.resolve("history.jsonl");
        Map<String, String> settings = new HashMap<>();
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
        settings.put(MeasureResources.HISTORY_KEY, file.toString());
        settings.put(MeasureResources.HISTORY_UPDATE_KEY, "true");
        settings.put(MeasureResources.TESTBED_KEY, "fixture");
        settings.put(MeasureResources.EXPECTED_TO_FAIL_BY_KEY, "SuiteIT.itsFixtureFails");
        try (ReportSession session = new ReportSession(ReportSettings.from(k -> Optional.ofNullable(settings.get(k))),
                Clock.fixed(ReportFixtures.START, ZoneOffset.UTC), s -> { }, w -> { })) {
            TestResult fixture = ReportFixtures.oomKilled(CLASS, "train");
            session.compare(fixture);
            session.testFinished(fixture);
        }

        assertThat(Files.exists(file) ? FILE.read(file).history().runs() : Map.of()).isEmpty();
    }
}
