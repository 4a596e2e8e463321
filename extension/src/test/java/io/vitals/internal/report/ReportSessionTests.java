package io.vitals.internal.report;

import io.vitals.MeasureResources;
import io.vitals.internal.result.TestResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportSessionTests {

    @TempDir
    Path dir;

    private final List<String> console = Collections.synchronizedList(new ArrayList<>());
    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    private ReportSession session(Map<String, String> settings) {
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))),
                Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC), console::add, warnings::add);
    }

    private ReportSession session() {
        return session(Map.of(MeasureResources.REPORT_DIR_KEY, dir.toString()));
    }

    @Nested
    class Layout {

        @Test
        @DisplayName("writes <class>/<method>.json on the report thread, and the run-wide files on close")
        void fileLayout() throws IOException {
            Optional<Path> json;
            try (ReportSession session = session()) {
                json = session.testFinished(ReportFixtures.result("com.example.TrainTests", "train")).join();
                session.testFinished(ReportFixtures.result("com.example.TrainTests", "train",
                        Optional.of("[2] batch=128"), 1.0));
                assertThat(json).contains(dir.resolve("com.example.TrainTests/train.json"));
                assertThat(json.get()).exists();
                assertThat(dir.resolve(ReportSession.HTML_FILE)).doesNotExist();
            }
            assertThat(dir.resolve("com.example.TrainTests/train[2]-batch-128.json")).exists();
            assertThat(Stream.of(ReportSession.INDEX_FILE, ReportSession.HTML_FILE, ReportSession.SUMMARY_FILE,
                    ReportSession.PROMETHEUS_FILE)).allSatisfy(name -> assertThat(dir.resolve(name)).isNotEmptyFile());
            try (Stream<Path> files = Files.walk(dir)) {
                assertThat(files.map(Path::toString)).noneMatch(name -> name.endsWith(".tmp"));
            }
        }

        @Test
        @DisplayName("the index lists every test with its key figures and JSON path")
        void index() throws IOException {
            TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
            try (ReportSession session = session()) {
                session.testFinished(result);
                session.testFinished(ReportFixtures.oomKilled("com.example.TrainTests", "oom"));
            }
            JsonNode index = new ObjectMapper().readTree(dir.resolve("vitals.json").toFile());
            assertThat(index.get("schema").asText()).isEqualTo("vitals-run/1");
            assertThat(index.get("tests")).hasSize(2);
            JsonNode first = index.at("/tests/0");
            assertThat(first.get("json").asText()).isEqualTo("com.example.TrainTests/train.json");
            assertThat(first.at("/containers/0/peakMemoryBytes").asLong())
                    .isEqualTo(result.containers().get(0).usage().peakMemory().toBytes());
            assertThat(first.at("/containers/0/memoryLimitBytes").asLong()).isEqualTo(ReportFixtures.LIMIT.toBytes());
            assertThat(first.at("/containers/0/cpuSeconds").asDouble()).isPositive();
            assertThat(index.at("/tests/1/breaches/0").asText()).startsWith("tf: peakMemory");
            assertThat(index.at("/tests/1/outcome").asText()).isEqualTo("FAILED");
            // the one row of the exactness table both tests were measured on, named once for the run
            assertThat(index.get("hostShapes")).hasSize(1);
            assertThat(index.at("/hostShapes/0/id").asText()).isEqualTo("cgroup-v2-6.12-root");
            assertThat(index.at("/hostShapes/0/label").asText()).isEqualTo("cgroup v2, kernel 6.12, root");
            assertThat(first.at("/containers/0/hostShape").asText()).isEqualTo("cgroup-v2-6.12-root");
        }

        @Test
        @DisplayName("an earlier run's JSON of a test gone from a class that ran is removed; other files stay")
        void staleTestJsonIsRemoved() throws IOException {
            Path classDir = Files.createDirectories(dir.resolve("com.example.TrainTests"));
            Path renamed = Files.writeString(classDir.resolve("oldName.json"), "{}");
            Path otherClass = Files.writeString(Files.createDirectories(dir.resolve("com.example.OtherIT"))
                    .resolve("m.json"), "{}");
            java.nio.file.attribute.FileTime earlier = java.nio.file.attribute.FileTime.from(
                    Instant.now().minusSeconds(3600));
            Files.setLastModifiedTime(renamed, earlier);
            Files.setLastModifiedTime(otherClass, earlier);
            try (ReportSession session = session()) {
                // a parallel fork of this run may write into the same directory after the session began
                Path parallel = Files.writeString(classDir.resolve("fromAParallelFork.json"), "{}");
                session.testFinished(ReportFixtures.result("com.example.TrainTests", "train"));
                assertThat(parallel).exists();
            }
            assertThat(renamed).doesNotExist();
            assertThat(otherClass).exists(); // another module or plugin execution (e.g. failsafe after surefire)
            JsonNode index = new ObjectMapper().readTree(dir.resolve("vitals.json").toFile());
            assertThat(index.get("tests")).hasSize(1);
            assertThat(index.at("/tests/0/json").asText()).isEqualTo("com.example.TrainTests/train.json");
            assertThat(Files.readString(dir.resolve(ReportSession.HTML_FILE))).doesNotContain("oldName")
                    .doesNotContain("OtherIT");
            assertThat(warnings).isEmpty();
        }

        @Test
        @DisplayName("without a baseline, the run and every test say baseline: null")
        void noBaselineIsNullEverywhere() throws IOException {
            try (ReportSession session = session()) {
                session.testFinished(ReportFixtures.result("com.example.TrainTests", "train"));
            }
            JsonNode index = new ObjectMapper().readTree(dir.resolve("vitals.json").toFile());
            assertThat(index.get("baseline").isNull()).isTrue();
            assertThat(index.at("/tests/0/baseline").isNull()).isTrue();
        }

        @Test
        @DisplayName("tests whose names make the same file get distinct files")
        void uniqueNames() {
            try (ReportSession session = session()) {
                TestResult a = ReportFixtures.result("com.example.T", "m", Optional.of("[1] a/b"), 1.0);
                TestResult b = ReportFixtures.result("com.example.T", "m", Optional.of("[1] a:b"), 1.0);
                Path pa = session.testFinished(a).join().orElseThrow();
                Path pb = session.testFinished(b).join().orElseThrow();
                assertThat(pa.getFileName().toString()).isEqualTo("m[1]-a-b.json");
                assertThat(pb.getFileName().toString()).isEqualTo("m[1]-a-b-2.json");
                // The same test again reuses its file.
                assertThat(session.testFinished(a).join()).contains(pa);
            }
        }

        @Test
        @DisplayName("the index is rewritten after each class, so a crash mid-run still leaves one")
        void indexAfterClass() throws Exception {
            ReportSession session = session();
            session.testFinished(ReportFixtures.result("com.example.TrainTests", "train"));
            session.classFinished("com.example.TrainTests");
            session.awaitBackgroundWrites(); // the rewrite runs on the report thread
            assertThat(dir.resolve(ReportSession.INDEX_FILE)).isNotEmptyFile();
            assertThat(console).singleElement().asString().contains("TEST").contains("PEAK MEM");
        }
    }

    @Nested
    class Reliability {

        @Test
        @DisplayName("an unwritable report directory gives one warning and never throws")
        void unwritableDirectory() throws IOException {
            Path file = Files.writeString(dir.resolve("not-a-directory"), "x");
            ReportSession session = session(Map.of(MeasureResources.REPORT_DIR_KEY, file.resolve("vitals").toString()));

            assertThatCode(() -> {
                for (int i = 0; i < 5; i++) {
                    assertThat(session.testFinished(ReportFixtures.result("com.example.T", "m" + i)).join()).isEmpty();
                }
                session.classFinished("com.example.T");
                session.close();
            }).doesNotThrowAnyException();
            assertThat(warnings).singleElement().asString().contains("Cannot write Vitals reports to")
                    .contains(MeasureResources.REPORT_DIR_KEY);
        }

        @Test
        @DisplayName("concurrent classes do not corrupt the index")
        void parallelClasses() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try (ReportSession session = session()) {
                List<Future<?>> futures = new ArrayList<>();
                for (int c = 0; c < 8; c++) {
                    String className = "com.example.Parallel" + c + "Tests";
                    futures.add(pool.submit(() -> {
                        for (int m = 0; m < 10; m++) {
                            session.compare(ReportFixtures.result(className, "m" + m));
                            session.testFinished(ReportFixtures.result(className, "m" + m));
                        }
                        session.classFinished(className);
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            JsonNode index = new ObjectMapper().readTree(dir.resolve("vitals.json").toFile());
            assertThat(index.get("tests")).hasSize(80);
            List<String> paths = new ArrayList<>();
            index.get("tests").forEach(t -> paths.add(t.get("json").asText()));
            assertThat(paths).doesNotHaveDuplicates().allSatisfy(p -> assertThat(dir.resolve(p)).exists());
            assertThat(warnings).isEmpty();
        }

        @Test
        @DisplayName("json console mode prints one JSON line per test")
        void jsonConsole() throws IOException {
            try (ReportSession session = session(Map.of(MeasureResources.REPORT_DIR_KEY, dir.toString(),
                    MeasureResources.CONSOLE_KEY, "json"))) {
                session.testFinished(ReportFixtures.result("com.example.T", "a"));
                session.testFinished(ReportFixtures.result("com.example.T", "b"));
                session.classFinished("com.example.T");
            }
            assertThat(console).hasSize(2).allSatisfy(line -> {
                assertThat(line).endsWith("\n").doesNotContain("\n\n");
                assertThat(line.strip()).doesNotContain("\n");
            });
            JsonNode line = new ObjectMapper().readTree(console.get(0));
            assertThat(line.at("/containers/0/peakMemory").asDouble()).isPositive();
        }

        @Test
        @DisplayName("off console mode prints nothing")
        void offConsole() {
            try (ReportSession session = session(Map.of(MeasureResources.REPORT_DIR_KEY, dir.toString(),
                    MeasureResources.CONSOLE_KEY, "off"))) {
                session.testFinished(ReportFixtures.result("com.example.T", "a"));
                session.classFinished("com.example.T");
            }
            assertThat(console).isEmpty();
            assertThat(console.stream().collect(Collectors.joining())).isEmpty();
        }
    }

    /** {@link ReportSession#prepareClose()}: the run-wide files written when the last test ended, kept if current. */
    @Nested
    class PreparedClose {

        private static final List<String> RUN_WIDE = List.of(ReportSession.INDEX_FILE, ReportSession.HTML_FILE,
                ReportSession.SUMMARY_FILE, ReportSession.PROMETHEUS_FILE);

        private ReportSession sessionIn(Path reports, Map<String, String> more) {
            Map<String, String> settings = new java.util.HashMap<>(more);
            settings.put(MeasureResources.REPORT_DIR_KEY, reports.toString());
            return session(settings);
        }

        private void finishTwo(ReportSession session) {
            for (TestResult result : List.of(ReportFixtures.result("com.example.TrainTests", "train"),
                    ReportFixtures.oomKilled("com.example.TrainTests", "oom"))) {
                session.compare(result);
                session.testFinished(result);
            }
            session.classFinished("com.example.TrainTests");
        }

        @Test
        @DisplayName("written ahead and kept at the close: the same bytes as files written at the close alone")
        void sameFilesAsAtTheClose() throws IOException {
            try (ReportSession session = sessionIn(dir.resolve("ahead"), Map.of())) {
                finishTwo(session);
                session.prepareClose();
            }
            try (ReportSession session = sessionIn(dir.resolve("atClose"), Map.of())) {
                finishTwo(session);
            }
            for (String name : RUN_WIDE) {
                assertThat(dir.resolve("ahead").resolve(name)).as(name)
                        .hasSameBinaryContentAs(dir.resolve("atClose").resolve(name));
            }
            assertThat(warnings).isEmpty();
        }

        @Test
        @DisplayName("a test that ends after the files were written ahead is in them after the close")
        void laterTestWrittenAgain() throws IOException {
            try (ReportSession session = session()) {
                finishTwo(session);
                session.prepareClose();
                session.testFinished(ReportFixtures.result("com.example.LateTests", "late"));
            }
            JsonNode index = new ObjectMapper().readTree(dir.resolve(ReportSession.INDEX_FILE).toFile());
            assertThat(index.get("tests")).hasSize(3);
            assertThat(index.at("/tests/2/json").asText()).isEqualTo("com.example.LateTests/late.json");
            assertThat(Files.readString(dir.resolve(ReportSession.HTML_FILE))).contains("LateTests");
            assertThat(Files.readString(dir.resolve(ReportSession.SUMMARY_FILE))).contains("late");
        }

        @Test
        @DisplayName("the run history is updated once, at the close: its previous copy is the file from before the run")
        void historyUpdatedOnceAtTheClose() throws IOException {
            Path history = dir.resolve("history.jsonl");
            Map<String, String> settings = new java.util.HashMap<>(Map.of(MeasureResources.HISTORY_KEY,
                    history.toString(), MeasureResources.HISTORY_UPDATE_KEY, "true"));
            settings.put(MeasureResources.RUN_ID_KEY, "first");
            try (ReportSession session = sessionIn(dir.resolve("first"), settings)) {
                finishTwo(session);
            }
            String beforeTheRun = Files.readString(history);

            settings.put(MeasureResources.RUN_ID_KEY, "second");
            try (ReportSession session = sessionIn(dir.resolve("second"), settings)) {
                finishTwo(session);
                session.prepareClose();
                session.testFinished(ReportFixtures.result("com.example.LateTests", "late"));
            }

            assertThat(history.resolveSibling("history.jsonl" + io.vitals.internal.files.StoredFile.PREVIOUS_SUFFIX))
                    .hasContent(beforeTheRun);
            assertThat(Files.readString(history)).contains("\"second\"").contains("LateTests#late");
            assertThat(warnings).isEmpty();
        }
    }
}
