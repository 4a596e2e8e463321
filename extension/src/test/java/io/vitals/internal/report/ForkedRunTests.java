package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.internal.regression.history.HistoryFile;
import io.vitals.internal.regression.history.HistoryRun;
import io.vitals.internal.report.run.RunIdentity;
import io.vitals.internal.report.run.RunLedger;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions of one run (Surefire or Failsafe forks: here, sessions given one {@link RunIdentity}) write one index,
 * summary, page, Prometheus file and history entry with every test, whichever closes last and whether they run side
 * by side ({@code reuseForks=true}) or one after another ({@code reuseForks=false}). The forks of a real Maven build
 * are run by examples/setup/matrix.sh.
 */
class ForkedRunTests {

    private static final RunIdentity BUILD = new RunIdentity("id:build-1", "one build");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    private ReportSession fork(RunIdentity run, Instant now, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.toString());
        settings.put(MeasureResources.PROMETHEUS_SERIES_KEY, "test"); // every test's series: each names its test
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))), run,
                Clock.fixed(now, ZoneOffset.UTC), text -> { }, warnings::add);
    }

    private ReportSession fork(Instant now, Map<String, String> extra) {
        return fork(BUILD, now, extra);
    }

    private static void runClass(ReportSession session, String className, String... methods) {
        for (String method : methods) {
            session.testFinished(ReportFixtures.result(className, method));
        }
        session.classFinished(className);
    }

    private Set<String> indexedTests() throws IOException {
        JsonNode index = JSON.readTree(dir.resolve(ReportSession.INDEX_FILE).toFile());
        Set<String> tests = new TreeSet<>();
        index.get("tests").forEach(test -> tests.add(test.get("className").asText() + "#"
                + test.get("displayName").asText()));
        assertThat(index.get("testCount").asInt()).isEqualTo(tests.size());
        return tests;
    }

    private static final Set<String> ALL = Set.of("a.A#a1()", "a.A#a2()", "b.B#b1()", "b.B#b2()", "c.C#c1()",
            "c.C#c2()", "d.D#d1()", "d.D#d2()");

    private void assertEveryFileHoldsAllEight() throws IOException {
        assertThat(indexedTests()).containsExactlyInAnyOrderElementsOf(ALL);
        String summary = Files.readString(dir.resolve(ReportSession.SUMMARY_FILE));
        String page = Files.readString(dir.resolve(ReportSession.HTML_FILE));
        String prometheus = Files.readString(dir.resolve(ReportSession.PROMETHEUS_FILE));
        for (String test : ALL) {
            String method = test.substring(test.indexOf('#') + 1, test.length() - 2);
            assertThat(summary).as("summary.md").contains(method);
            assertThat(page).as("index.html").contains(method);
            assertThat(prometheus).as("vitals.prom").contains("test=\"" + method + "\"");
        }
        assertThat(summary).contains("8 tests");
    }

    @Test
    @DisplayName("two forks side by side (reuseForks=true): every test in every run-wide file, whichever closes last")
    void sideBySide() throws IOException {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        ReportSession first = fork(t0, Map.of());
        ReportSession second = fork(t0.plusSeconds(1), Map.of());
        runClass(first, "a.A", "a1", "a2");
        runClass(second, "b.B", "b1", "b2");
        runClass(first, "c.C", "c1", "c2");
        runClass(second, "d.D", "d1", "d2");
        second.close(); // the later fork may end first
        first.close();
        assertEveryFileHoldsAllEight();
        assertThat(warnings).isEmpty();
    }

    @Test
    @DisplayName("four forks one after another (reuseForks=false): the last one's files hold all eight tests")
    void oneAfterAnother() throws IOException {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        String[][] classes = {{"a.A", "a1", "a2"}, {"b.B", "b1", "b2"}, {"c.C", "c1", "c2"}, {"d.D", "d1", "d2"}};
        for (int i = 0; i < classes.length; i++) {
            try (ReportSession fork = fork(t0.plusSeconds(10L * i), Map.of())) {
                runClass(fork, classes[i][0], classes[i][1], classes[i][2]);
            }
        }
        assertEveryFileHoldsAllEight();
        assertThat(warnings).isEmpty();
    }

    @Test
    @DisplayName("the history gets one run holding all eight tests, under one run id, with updates on")
    void oneHistoryEntry() throws IOException {
        Path history = dir.resolve("history.jsonl");
        Map<String, String> settings = Map.of(MeasureResources.HISTORY_KEY, history.toString(),
                MeasureResources.HISTORY_UPDATE_KEY, "true");
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        ReportSession first = fork(t0, settings);
        ReportSession second = fork(t0.plusSeconds(1), settings);
        runClass(first, "a.A", "a1", "a2");
        runClass(first, "c.C", "c1", "c2");
        runClass(second, "b.B", "b1", "b2");
        first.close();
        try (ReportSession third = fork(t0.plusSeconds(30), settings)) { // reuseForks=false: a later fork
            runClass(third, "d.D", "d1", "d2");
        }
        second.close();
        var loaded = new HistoryFile(JSON).read(history).history();
        Set<String> tests = new TreeSet<>();
        Set<String> runIds = new TreeSet<>();
        loaded.runs().forEach((key, runs) -> {
            tests.add(key.test());
            runs.stream().map(HistoryRun::id).forEach(runIds::add);
            assertThat(runs).as("runs of " + key).hasSize(1);
        });
        assertThat(tests).hasSize(8);
        assertThat(runIds).hasSize(1); // one run, named after the first fork's start
        assertThat(Files.readString(dir.resolve("vitals-history.jsonl"))).isEqualTo(Files.readString(history));
        assertEveryFileHoldsAllEight();
    }

    @Test
    @DisplayName("the baseline gets each test once, whichever fork updates it")
    void oneBaselineUpdate() throws IOException {
        Path baseline = dir.resolve("baseline.json");
        Map<String, String> settings = Map.of(MeasureResources.BASELINE_KEY, baseline.toString(),
                MeasureResources.BASELINE_UPDATE_KEY, "true", MeasureResources.BASELINE_RUNS_KEY, "3");
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        ReportSession first = fork(t0, settings);
        ReportSession second = fork(t0.plusSeconds(1), settings);
        runClass(first, "a.A", "a1", "a2");
        runClass(second, "b.B", "b1", "b2");
        first.close();
        second.close();
        JsonNode tests = JSON.readTree(baseline.toFile()).get("tests");
        assertThat(tests.size()).isEqualTo(4);
        tests.forEach(test -> test.forEach(container -> container.forEach(values ->
                assertThat(values.size()).as(values.toString()).isEqualTo(1))));
    }

    @Test
    @DisplayName("a fork killed mid-run: the classes it finished are in the run's files, which all parse")
    void forkKilledMidRun() throws Exception {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        ReportSession killed = fork(t0, Map.of());
        runClass(killed, "a.A", "a1", "a2");
        killed.testFinished(ReportFixtures.result("b.B", "b1")); // its class never finishes
        killed.awaitBackgroundWrites(); // what a JVM killed now leaves: the files written so far, never closed
        try (ReportSession survivor = fork(t0.plusSeconds(1), Map.of())) {
            runClass(survivor, "c.C", "c1", "c2");
        }
        assertThat(indexedTests()).containsExactlyInAnyOrder("a.A#a1()", "a.A#a2()", "c.C#c1()", "c.C#c2()");
        try (var files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".json"))::iterator) {
                assertThat(JSON.readTree(file.toFile())).as(file.toString()).isNotNull();
            }
        }
        killed.close(); // only to end its report thread
    }

    @Test
    @DisplayName("a later run starts afresh: the earlier run's tests are not in its files")
    void nextRunStartsAfresh() throws IOException {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        try (ReportSession fork = fork(t0, Map.of())) {
            runClass(fork, "a.A", "a1", "a2");
        }
        try (ReportSession next = fork(new RunIdentity("id:build-2", "the next build"), t0.plusSeconds(60),
                Map.of())) {
            runClass(next, "b.B", "b1", "b2");
        }
        assertThat(indexedTests()).containsExactlyInAnyOrder("b.B#b1()", "b.B#b2()");
        try (var parts = Files.list(dir.resolve(RunLedger.DIR))) {
            assertThat(parts.filter(p -> p.getFileName().toString().startsWith("part-"))).hasSize(1);
        }
    }

    @Test
    @DisplayName("a run removes the temporary files a JVM killed between write and rename left in the run's directories")
    void killedWritersLeftovers() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        FileTime beforeThisJvm = FileTime.from(ProcessHandle.current().info().startInstant().orElseThrow()
                .minusSeconds(60));
        List<Path> left = new ArrayList<>();
        for (Path in : List.of(dir, dir.resolve(RunLedger.DIR), dir.resolve("a.A"))) {
            Files.createDirectories(in);
            Path temp = in.resolve(".x.json." + ended.pid() + "-1.tmp");
            Files.writeString(temp, "{\"half");
            Files.setLastModifiedTime(temp, beforeThisJvm);
            left.add(temp);
        }
        try (ReportSession fork = fork(Instant.parse("2026-03-01T12:00:00Z"), Map.of())) {
            runClass(fork, "a.A", "a1", "a2");
        }
        assertThat(left).allSatisfy(temp -> assertThat(temp).doesNotExist());
        assertThat(indexedTests()).containsExactlyInAnyOrder("a.A#a1()", "a.A#a2()");
    }

    @Test
    @DisplayName("a test run twice in one run (Surefire's rerun) is listed once, as its last attempt ended")
    void rerunKeepsTheLastAttempt() throws IOException {
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        try (ReportSession attempt = fork(t0, Map.of())) {
            attempt.testFinished(ReportFixtures.result("a.A", "a1"));
            attempt.testFinished(ReportFixtures.oomKilled("a.A", "flaky"));
            attempt.classFinished("a.A");
        }
        try (ReportSession rerun = fork(t0.plusSeconds(5), Map.of())) {
            TestResult passed = ReportFixtures.result("a.A", "flaky");
            rerun.testFinished(new TestResult(passed.uniqueId(), passed.className(), passed.methodName(),
                    passed.displayName(), passed.parameters(), passed.outcome(), passed.failureMessage(),
                    passed.startedAt().plusSeconds(60), passed.duration(), passed.containers()));
            rerun.classFinished("a.A");
        }
        JsonNode index = JSON.readTree(dir.resolve(ReportSession.INDEX_FILE).toFile());
        assertThat(index.get("testCount").asInt()).isEqualTo(2);
        index.get("tests").forEach(test -> assertThat(test.get("outcome").asText()).isEqualTo("PASSED"));
    }
}
