package io.vitals.internal.regression.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.internal.files.StoredFile;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.ReportSession;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.result.TestResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A baseline that exists but cannot be read is never replaced, so that one run cannot wipe out the reviewed
 * figures of every test it did not run: each way a file goes bad, with and without {@code vitals.baseline.update},
 * in {@code fail} and {@code warn} mode.
 */
class UnreadableBaselineTests {

    private static final String CLASS = "com.example.TrainTests";

    /** A good baseline, so that each bad one below differs from it in one known place. */
    private static final String GOOD = """
            {
              "schema" : "vitals-baseline/1",
              "tests" : {
                "com.example.TrainTests#evaluate" : {
                  "tf" : {
                    "peakMemory" : [ 851443712, 850000000 ]
                  }
                },
                "com.example.TrainTests#train" : {
                  "tf" : {
                    "peakMemory" : [ 851443712 ]
                  }
                }
              }
            }
            """;

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    static Stream<Arguments> unreadable() {
        ByteArrayOutputStream notUtf8 = new ByteArrayOutputStream();
        byte[] good = GOOD.getBytes(StandardCharsets.UTF_8);
        int at = GOOD.indexOf("#train");
        notUtf8.write(good, 0, at + 3);
        notUtf8.write(0xFF);
        notUtf8.write(good, at + 3, good.length - at - 3);
        return Stream.of(
                Arguments.of("cut short", GOOD.substring(0, GOOD.indexOf("851443712 ]") + 4)
                        .getBytes(StandardCharsets.UTF_8),
                        " line 11, column 30: it does not parse as JSON: Unexpected end-of-input: expected close "
                                + "marker for Array (start marker at line 11, column 24); the file looks cut short"),
                Arguments.of("a merge conflict", GOOD.replace("    \"com.example.TrainTests#train\"",
                        "<<<<<<< HEAD\n    \"com.example.TrainTests#train\"").getBytes(StandardCharsets.UTF_8),
                        " line 9, column 1: it does not parse as JSON: Unexpected character ('<' (code 60)): was "
                                + "expecting double-quote to start field name"),
                Arguments.of("empty", new byte[0],
                        ": the file is empty (0 bytes), so it holds no figures; a baseline starts with "
                                + "{\"schema\" : \"vitals-baseline/1\", \"tests\" : {...}}"),
                Arguments.of("a newer schema version", GOOD.replace("vitals-baseline/1", "vitals-baseline/2")
                        .getBytes(StandardCharsets.UTF_8),
                        " line 2: schema 'vitals-baseline/2' was written by a newer version of Vitals; this "
                                + "version reads vitals-baseline/1 and would write the file back as "
                                + "vitals-baseline/1, losing what the newer one added. Run the version of Vitals "
                                + "that wrote it"),
                // Jackson notices the byte a few columns on, at the end of the string it decodes
                Arguments.of("a byte that is not UTF-8", notUtf8.toByteArray(),
                        " line 9, column 36: it does not parse as JSON: Invalid UTF-8 start byte 0xff"),
                Arguments.of("a figure that is no number", GOOD.replace("[ 851443712 ]", "[ \"812MiB\" ]")
                        .getBytes(StandardCharsets.UTF_8),
                        " line 11: test 'com.example.TrainTests#train', container 'tf', metric 'peakMemory' must "
                                + "hold numbers only, but holds \"812MiB\""));
    }

    private ReportSession session(boolean update, ReportSettings.BaselineMode mode) {
        Map<String, String> settings = new HashMap<>();
        settings.put(MeasureResources.BASELINE_RUNS_KEY, "3");
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
        settings.put(MeasureResources.BASELINE_KEY, dir.resolve("baseline.json").toString());
        settings.put(MeasureResources.BASELINE_UPDATE_KEY, Boolean.toString(update));
        settings.put(MeasureResources.BASELINE_MODE_KEY, mode.name().toLowerCase(java.util.Locale.ROOT));
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))),
                Clock.systemUTC(), s -> { }, warnings::add);
    }

    @ParameterizedTest(name = "{0}, update {1}, {2} mode")
    @MethodSource("cases")
    @DisplayName("a bad baseline is left byte for byte; the warning and the verdict name file, line and reason")
    void neverReplaced(String name, boolean update, ReportSettings.BaselineMode mode, byte[] content,
            String where) throws IOException {
        Path file = dir.resolve("baseline.json");
        Files.write(file, content);

        RegressionVerdict verdict;
        try (ReportSession session = session(update, mode)) {
            TestResult result = ReportFixtures.result(CLASS, "train");
            verdict = session.compare(result);
            session.testFinished(result);
        }

        String problem = "Baseline " + file + where;
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(StoredFile.previous(file)).doesNotExist();
        assertThat(warnings.get(0)).startsWith(problem + ". Nothing is compared with it"
                + (update ? ", and it is not updated" : "") + "; the file is left as it is. Repair it, or restore "
                + "it from version control or from " + file + ".previous where that exists");
        assertThat(verdict.unusable()).hasValueSatisfying(reason -> assertThat(reason).startsWith(problem));
        assertThat(verdict.failsTest()).isEqualTo(mode == ReportSettings.BaselineMode.FAIL);
        assertThat(verdict.message()).startsWith("Resource usage of " + CLASS + "#train could not be compared: "
                + problem + ". The file is left as it is.");
        if (mode == ReportSettings.BaselineMode.FAIL) {
            assertThat(verdict.message()).endsWith("until then every compared test fails (-Dvitals.baseline.mode="
                    + "warn runs on with warnings).");
        }
        if (update) {
            assertThat(warnings).hasSize(2);
            assertThat(warnings.get(1)).startsWith(problem + ". The update with this run was refused and the file "
                    + "is left as it is.");
        } else {
            assertThat(warnings).hasSize(1);
        }
        assertThat(String.join("\n", warnings)).doesNotContain("REDACTED").doesNotContain("Source:");
    }

    static Stream<Arguments> cases() {
        return unreadable().flatMap(bad -> Stream.of(true, false).flatMap(update -> Stream.of(
                ReportSettings.BaselineMode.values()).map(mode -> Arguments.of(bad.get()[0], update, mode,
                        bad.get()[1], bad.get()[2]))));
    }

    @Test
    @DisplayName("an update keeps the file it replaces as <name>.previous, and an unchanged baseline is not rewritten")
    void updateKeepsThePreviousFile() throws IOException {
        Path file = dir.resolve("baseline.json");
        Files.writeString(file, GOOD);

        try (ReportSession session = session(true, ReportSettings.BaselineMode.FAIL)) {
            session.testFinished(ReportFixtures.result(CLASS, "train", Optional.empty(), 1.1));
        }

        assertThat(StoredFile.previous(file)).hasContent(GOOD);
        Baseline updated = new BaselineFile(new ObjectMapper()).read(file);
        assertThat(updated.tests().keySet()).containsExactly(CLASS + "#evaluate", CLASS + "#train");
        assertThat(updated.history(CLASS + "#train", "tf", io.vitals.internal.metric.Metric.PEAK_MEMORY))
                .hasSize(2).startsWith(851443712.0);
        byte[] afterFirst = Files.readAllBytes(file);

        // a run that adds nothing: the file is not rewritten, so .previous still holds the last real change
        try (ReportSession session = session(true, ReportSettings.BaselineMode.FAIL)) {
            session.compare(ReportFixtures.result(CLASS, "train"));
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(afterFirst);
        assertThat(StoredFile.previous(file)).hasContent(GOOD);
        // written atomically: no temporary file is left beside it
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("baseline.json", "baseline.json.previous", "vitals");
        }
        assertThat(warnings).isEmpty();
    }

    @Test
    @DisplayName("a missing baseline is created with update, without a .previous file")
    void missingIsCreated() {
        Path file = dir.resolve("baseline.json");

        try (ReportSession session = session(true, ReportSettings.BaselineMode.FAIL)) {
            session.testFinished(ReportFixtures.result(CLASS, "train"));
        }

        assertThat(file).exists();
        assertThat(StoredFile.previous(file)).doesNotExist();
        assertThat(warnings).isEmpty();
    }
}
