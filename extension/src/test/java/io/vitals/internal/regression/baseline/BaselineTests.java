package io.vitals.internal.regression.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineTests {

    private static final String CLASS = "com.example.TrainTests";

    @TempDir
    Path dir;

    private final List<String> console = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private ReportSession session(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(extra);
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
        settings.put(MeasureResources.BASELINE_KEY, dir.resolve("baseline.json").toString());
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))),
                Clock.systemUTC(), console::add, warnings::add);
    }

    private void record(double scale, String... methods) {
        try (ReportSession session = session(Map.of(MeasureResources.BASELINE_UPDATE_KEY, "true",
                MeasureResources.BASELINE_RUNS_KEY, "3"))) {
            for (String method : methods) {
                session.testFinished(ReportFixtures.result(CLASS, method, Optional.empty(), scale));
            }
        }
    }

    @Test
    @DisplayName("a test that measured nothing this run keeps its baseline entry and is not compared")
    void unmeasuredKeepsItsEntry() throws IOException {
        record(1.0, "train");
        String before = Files.readString(dir.resolve("baseline.json"));
        try (ReportSession session = session(Map.of(MeasureResources.BASELINE_UPDATE_KEY, "true",
                MeasureResources.BASELINE_RUNS_KEY, "3"))) {
            TestResult failedEarly = new TestResult("id", CLASS, "train", "train()", Optional.empty(),
                    TestResult.Outcome.FAILED, Optional.of("setup broke"), ReportFixtures.START,
                    java.time.Duration.ZERO, List.of());
            RegressionVerdict verdict = session.compare(failedEarly);
            assertThat(verdict.failsTest()).isFalse();
            assertThat(verdict.lines()).isEmpty();
            session.testFinished(failedEarly);
        }
        assertThat(Files.readString(dir.resolve("baseline.json"))).isEqualTo(before);
        assertThat(Files.readString(dir.resolve("vitals/summary.md"))).doesNotContain("Not in baseline");
    }

    @Test
    @DisplayName("a 30 % heavier run regresses, with the message naming baseline, now, change and tolerance")
    void regression() {
        record(1.0, "train");
        TestResult heavier = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.3);
        double before = ReportFixtures.result(CLASS, "train").containers().get(0).usage().peakMemory().toBytes();
        double now = heavier.containers().get(0).usage().peakMemory().toBytes();

        RegressionVerdict verdict;
        try (ReportSession session = session(Map.of())) {
            verdict = session.compare(heavier);
            session.testFinished(heavier);
        }

        assertThat(verdict.failsTest()).isTrue();
        assertThat(verdict.regressions()).extracting(f -> f.metric().key())
                .contains("peakMemory", "cpuTime", "averageCpu", "peakPids", "blockRead");
        RegressionFinding peak = verdict.regressions().stream().filter(f -> f.metric() == Metric.PEAK_MEMORY)
                .findFirst().orElseThrow();
        assertThat(peak.message()).isEqualTo(String.format(java.util.Locale.ROOT,
                "peakMemory regressed: baseline %s, now %s (%+.1f %%, tolerance 10 %%)",
                Metric.PEAK_MEMORY.format(before), Metric.PEAK_MEMORY.format(now), 100 * (now - before) / before));
        assertThat(peak.message()).matches("peakMemory regressed: baseline \\d+\\.\\d [KMG]iB, now \\d+\\.\\d [KMG]iB"
                + " \\(\\+30\\.\\d %, tolerance 10 %\\)");
        assertThat(verdict.message()).startsWith("Resource usage of " + CLASS + "#train regressed against the baseline:")
                .contains(peak.message());
        assertThat(Files.exists(dir.resolve("vitals/summary.md"))).isTrue();
    }

    @Test
    @DisplayName("the summary lists regressions at the top and says how many runs the baseline holds")
    void summaryListsRegressions() throws IOException {
        record(1.0, "train");
        try (ReportSession session = session(Map.of())) {
            TestResult heavier = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.3);
            session.compare(heavier);
            session.testFinished(heavier);
        }
        String md = Files.readString(dir.resolve("vitals/summary.md"));
        assertThat(md.indexOf("**Regression**")).isPositive().isLessThan(md.indexOf("## " + CLASS));
        assertThat(md).contains("peakMemory regressed: baseline").contains("it holds 1 run per test (keeps up to 1; the median is compared)");
    }

    @Test
    @DisplayName("warn mode reports the regression but does not fail the test")
    void warnMode() {
        record(1.0, "train");
        try (ReportSession session = session(Map.of(MeasureResources.BASELINE_MODE_KEY, "warn"))) {
            TestResult heavier = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.3);
            RegressionVerdict verdict = session.compare(heavier);
            session.testFinished(heavier);
            session.classFinished(CLASS);
            assertThat(verdict.failsTest()).isFalse();
            assertThat(verdict.hasRegressions()).isTrue();
            assertThat(verdict.lines()).anySatisfy(l -> assertThat(l).startsWith("peakMemory regressed"));
        }
        assertThat(String.join("", console)).contains("train: peakMemory regressed: baseline");
    }

    @Test
    @DisplayName("improvements beyond tolerance are listed, but never fail")
    void improvement() {
        record(1.0, "train");
        try (ReportSession session = session(Map.of())) {
            RegressionVerdict verdict = session.compare(ReportFixtures.result(CLASS, "train", Optional.empty(), 0.5));
            assertThat(verdict.failsTest()).isFalse();
            assertThat(verdict.improvements()).extracting(RegressionFinding::message)
                    .anySatisfy(m -> assertThat(m).startsWith("peakMemory improved: baseline").contains("(-50.0 %"));
        }
    }

    @Test
    @DisplayName("within tolerance nothing is reported")
    void withinTolerance() {
        record(1.0, "train");
        try (ReportSession session = session(Map.of())) {
            RegressionVerdict verdict = session.compare(ReportFixtures.result(CLASS, "train", Optional.empty(), 1.05));
            assertThat(verdict.isNoteworthy()).isFalse();
        }
    }

    @Test
    @DisplayName("tests missing from the baseline, and baseline entries missing from the run, are reported")
    void missing() throws IOException {
        record(1.0, "train", "evaluate");
        try (ReportSession session = session(Map.of())) {
            RegressionVerdict fresh = session.compare(ReportFixtures.result(CLASS, "export"));
            session.testFinished(ReportFixtures.result(CLASS, "export"));
            session.testFinished(ReportFixtures.result(CLASS, "train"));
            session.classFinished(CLASS);
            assertThat(fresh.inBaseline()).isFalse();
            assertThat(fresh.failsTest()).isFalse();
            assertThat(session.report().baseline().orElseThrow().notRun()).containsExactly(CLASS + "#evaluate");
        }
        String md = Files.readString(dir.resolve("vitals/summary.md"));
        assertThat(md).contains("Not in baseline `" + CLASS + "#export`")
                .contains("In baseline but not run: `" + CLASS + "#evaluate`");
        assertThat(String.join("", console)).contains("export: not in the baseline yet");
    }

    @Test
    @DisplayName("the baseline keeps the last N runs and compares with their median")
    void medianOfRuns() throws IOException {
        record(1.0, "train");
        record(2.0, "train");
        record(1.1, "train");
        record(1.2, "train");
        Baseline baseline = new BaselineFile(new ObjectMapper()).read(dir.resolve("baseline.json"));
        List<Double> history = baseline.history(CLASS + "#train", "tf", Metric.PEAK_MEMORY);
        assertThat(history).hasSize(3);
        double peak = ReportFixtures.result(CLASS, "train").containers().get(0).usage().peakMemory().toBytes();
        // Runs 2.0, 1.1 and 1.2 are kept; their median is 1.2: a 1.3 run is within 10 %, a 1.0 run is not.
        assertThat(Baseline.median(history)).isCloseTo(peak * 1.2, org.assertj.core.data.Percentage.withPercentage(1));
        try (ReportSession session = session(Map.of(MeasureResources.BASELINE_RUNS_KEY, "3"))) {
            RegressionVerdict heavier = session.compare(ReportFixtures.result(CLASS, "train", Optional.empty(), 1.3));
            assertThat(heavier.regressions()).noneMatch(f -> f.metric() == Metric.PEAK_MEMORY);
            assertThat(heavier.runs()).isEqualTo(3);
            RegressionVerdict lighter = session.compare(ReportFixtures.result(CLASS, "train", Optional.empty(), 1.0));
            assertThat(lighter.improvements()).anySatisfy(f -> assertThat(f.message())
                    .contains("(median of 3 runs)"));
        }
    }

    @Test
    @DisplayName("the baseline file is sorted, one test per object, one line per metric")
    void diffFriendly() throws IOException {
        record(1.0, "train", "evaluate");
        String text = Files.readString(dir.resolve("baseline.json"));
        assertThat(text).startsWith("{\n  \"schema\" : \"vitals-baseline/1\"");
        assertThat(text.indexOf("#evaluate")).isLessThan(text.indexOf("#train"));
        assertThat(text.indexOf("\"averageCpu\"")).isLessThan(text.indexOf("\"peakMemory\""));
        assertThat(text).containsPattern("\"peakMemory\" : \\[ \\d+ \\]");
        // Writing it again gives the same bytes.
        BaselineFile file = new BaselineFile(new ObjectMapper());
        assertThat(file.toJson(file.read(dir.resolve("baseline.json")))).isEqualTo(text);
    }

    @Test
    @DisplayName("GPU figures are compared only with a tolerance of their own; a run without a GPU stores no NaN")
    void gpuFiguresOnRequest() throws IOException {
        record(1.0, "train");
        TestResult heavier = ReportFixtures.result(CLASS, "train", Optional.empty(), 1.3);
        try (ReportSession session = session(Map.of())) {
            assertThat(session.compare(heavier).regressions()).extracting(f -> f.metric().key())
                    .contains("peakMemory").doesNotContain("peakGpuMemory", "gpuEnergy");
        }
        try (ReportSession session = session(Map.of(MeasureResources.TOLERANCE_KEY_PREFIX + "peakGpuMemory", "10%"))) {
            RegressionFinding gpu = session.compare(heavier).regressions().stream()
                    .filter(f -> f.metric() == Metric.PEAK_GPU_MEMORY).findFirst().orElseThrow();
            assertThat(gpu.message()).startsWith("peakGpuMemory regressed: baseline 1.2 GiB, now 1.6 GiB (+30.0 %");
        }

        // the same test, now on a machine where no GPU is visible: nothing to compare, and the baseline keeps the
        // GPU figures it had instead of storing NaN
        TestResult noGpu = sameTestWithoutGpu(ReportFixtures.result(CLASS, "train"));
        try (ReportSession session = session(Map.of(MeasureResources.TOLERANCE_KEY_PREFIX + "peakGpuMemory", "10%",
                MeasureResources.BASELINE_UPDATE_KEY, "true", MeasureResources.BASELINE_RUNS_KEY, "3"))) {
            assertThat(session.compare(noGpu).findings()).extracting(f -> f.metric().key())
                    .doesNotContain("peakGpuMemory");
            session.testFinished(noGpu);
        }
        String text = Files.readString(dir.resolve("baseline.json"));
        assertThat(text).doesNotContain("NaN").containsPattern("\"peakGpuMemory\" : \\[ 1293942784 \\]")
                .containsPattern("\"peakMemory\" : \\[ \\d+, \\d+ \\]");
    }

    private static TestResult sameTestWithoutGpu(TestResult result) {
        TestResult renamed = ReportFixtures.withoutGpu(result, List.of());
        return new TestResult(result.uniqueId(), result.className(), result.methodName(), result.displayName(),
                result.parameters(), result.outcome(), result.failureMessage(), result.startedAt(), result.duration(),
                renamed.containers());
    }

    @Test
    @DisplayName("without a baseline file, a warning says how to create one")
    void missingFile() {
        try (ReportSession session = session(Map.of())) {
            assertThat(session.compare(ReportFixtures.result(CLASS, "train")).failsTest()).isFalse();
        }
        assertThat(warnings).singleElement().asString().contains("does not exist")
                .contains("-Dvitals.baseline.update=true");
    }
}
