package io.vitals.internal.regression.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
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
 * A history that exists but cannot be read is never replaced, with or without {@code vitals.history.update}; in
 * {@code fail} mode the compared tests fail with the reason, in {@code warn} mode the run warns.
 */
class UnreadableHistoryTests {

    private static final String CLASS = "com.example.TrainTests";
    private static final String GOOD = """
            {"schema":"vitals-history/1","keep":5}
            {"test":"com.example.TrainTests#evaluate","container":"tf","phase":"","metric":"peakMemory","runs":[{"id":"1","at":"2026-03-01T10:15:30Z","values":[851443712]}]}
            {"test":"com.example.TrainTests#train","container":"tf","phase":"","metric":"peakMemory","runs":[{"id":"1","at":"2026-03-01T10:15:30Z","values":[851443712]}]}
            """;

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** GOOD with the byte 0xFF where {@code after} ends in {@code text}. */
    private static byte[] withInvalidByte(String text, String after) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int at = text.indexOf(after) + after.length();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, at);
        out.write(0xFF);
        out.write(bytes, at, bytes.length - at);
        return out.toByteArray();
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                Arguments.of("cut short", GOOD.substring(0, GOOD.lastIndexOf("\"values\"")).getBytes(
                        StandardCharsets.UTF_8), " line 3: each line must be one JSON object, but it does not parse: "
                        + "Unexpected end-of-input within/between Object entries"),
                Arguments.of("a merge conflict", GOOD.replace("{\"test\":\"com.example.TrainTests#train\"",
                        "<<<<<<< HEAD\n{\"test\":\"com.example.TrainTests#train\"").getBytes(StandardCharsets.UTF_8),
                        " line 3: each line must be one JSON object, but it does not parse: Unexpected character "
                                + "('<' (code 60)): expected a valid value (JSON String, Number, Array, Object or token 'null', "
                                + "'true' or 'false')"),
                Arguments.of("empty", new byte[0], " line 1: the file is empty; it must start with the header line "
                        + "{\"schema\":\"vitals-history/2\",\"keep\":20}"),
                Arguments.of("a newer schema version", GOOD.replace("vitals-history/1", "vitals-history/3")
                        .getBytes(StandardCharsets.UTF_8), " line 1: schema 'vitals-history/3' is not supported: "
                        + "this version of Vitals reads vitals-history/1 and vitals-history/2; it was written by a "
                        + "newer version of Vitals, and this one would write it back as vitals-history/2. Use that "
                        + "version. The file is left as it is"),
                Arguments.of("a byte that is not UTF-8", withInvalidByte(GOOD, "TrainTests#tr"),
                        " line 3: the file must be UTF-8, but byte 35 of the line (0xFF) is not"));
    }

    static Stream<Arguments> cases() {
        return unreadable().flatMap(bad -> Stream.of(true, false).flatMap(update -> Stream.of(
                ReportSettings.BaselineMode.values()).map(mode -> Arguments.of(bad.get()[0], update, mode,
                        bad.get()[1], bad.get()[2]))));
    }

    private ReportSession session(Path history, boolean update, ReportSettings.BaselineMode mode) {
        Map<String, String> settings = new HashMap<>();
        settings.put(MeasureResources.REPORT_DIR_KEY, dir.resolve("vitals").toString());
        settings.put(MeasureResources.HISTORY_KEY, history.toString());
        settings.put(MeasureResources.HISTORY_UPDATE_KEY, Boolean.toString(update));
        settings.put(MeasureResources.RUN_ID_KEY, "new");
        settings.put(MeasureResources.BASELINE_MODE_KEY, mode.name().toLowerCase(Locale.ROOT));
        return new ReportSession(ReportSettings.from(key -> Optional.ofNullable(settings.get(key))),
                Clock.fixed(ReportFixtures.START, ZoneOffset.UTC), s -> { }, warnings::add);
    }

    @ParameterizedTest(name = "{0}, update {1}, {2} mode")
    @MethodSource("cases")
    @DisplayName("a bad history is left byte for byte; the warning and the verdict name file, line and rule")
    void neverReplaced(String name, boolean update, ReportSettings.BaselineMode mode, byte[] content, String where)
            throws IOException {
        Path file = dir.resolve("history.jsonl");
        Files.write(file, content);

        RegressionVerdict verdict;
        try (ReportSession session = session(file, update, mode)) {
            TestResult result = ReportFixtures.result(CLASS, "train");
            verdict = session.compare(result);
            session.testFinished(result);
        }

        String problem = "History " + file + where;
        assertThat(Files.readAllBytes(file)).isEqualTo(content);
        assertThat(StoredFile.previous(file)).doesNotExist();
        assertThat(warnings.get(0)).startsWith(problem + "; nothing is compared and the file is not updated. "
                + "Repair it, or restore it from version control or from " + file + ".previous where that exists");
        assertThat(verdict.unusable()).hasValueSatisfying(reason -> assertThat(reason).startsWith(problem));
        assertThat(verdict.failsTest()).isEqualTo(mode == ReportSettings.BaselineMode.FAIL);
        assertThat(verdict.message()).startsWith("Resource usage of " + CLASS + "#train could not be compared: "
                + problem + "; the file is left as it is.");
        if (update) {
            assertThat(warnings).hasSize(2);
            assertThat(warnings.get(1)).startsWith(problem + "; the update with this run was refused and the file "
                    + "is left as it is.");
        } else {
            assertThat(warnings).hasSize(1);
        }
        assertThat(String.join("\n", warnings)).doesNotContain("REDACTED").doesNotContain("Source:")
                .doesNotContain("Input length");
    }

    @Test
    @DisplayName("a byte that is not UTF-8 far into the file is named by its own line, not by the line read before it")
    void invalidUtf8NamesItsLine() throws IOException {
        StringBuilder text = new StringBuilder("{\"schema\":\"vitals-history/1\",\"keep\":5}\n");
        for (int i = 0; i < 300; i++) {
            text.append(String.format(Locale.ROOT, "{\"test\":\"com.example.TrainTests#test%03d\",\"container\":\"tf\","
                    + "\"phase\":\"\",\"metric\":\"peakMemory\",\"runs\":[{\"id\":\"1\",\"at\":\"2026-03-01T10:15:30Z\","
                    + "\"values\":[851443712]}]}\n", i));
        }
        Path file = dir.resolve("history.jsonl");
        // line 252 holds test 250; its name gets the byte: far beyond the 8 KiB a buffered reader decodes ahead
        Files.write(file, withInvalidByte(text.toString(), "TrainTests#test250"));

        assertThatThrownBy(() -> new HistoryFile(new ObjectMapper()).read(file)).isInstanceOf(HistoryException.class)
                .hasMessage(file + " line 252: the file must be UTF-8, but byte 40 of the line (0xFF) is not");
    }

    @Test
    @DisplayName("an update keeps the file it replaces as <name>.previous")
    void updateKeepsThePreviousFile() throws IOException {
        Path file = dir.resolve("history.jsonl");
        Files.writeString(file, GOOD);

        try (ReportSession session = session(file, true, ReportSettings.BaselineMode.FAIL)) {
            TestResult result = ReportFixtures.result(CLASS, "train");
            session.compare(result);
            session.testFinished(result);
        }

        assertThat(StoredFile.previous(file)).hasContent(GOOD);
        History updated = new HistoryFile(new ObjectMapper()).read(file).history();
        assertThat(updated.runs(new HistoryKey(CLASS + "#train", "tf", "", "peakMemory")))
                .extracting(HistoryRun::id).containsExactly("1", "new");
        assertThat(updated.hasTest(CLASS + "#evaluate")).isTrue();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("history.jsonl", "history.jsonl.previous", "vitals");
        }
        assertThat(warnings).isEmpty();
    }
}
