package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.MeasureResources;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.settings.SettingKeys;
import io.vitals.tensorflow.TensorFlowContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is the one reference of the {@code vitals.*} keys: it lists every key once, its defaults are
 * the code's, and its error messages are the ones the code gives. No other page repeats a key in a table.
 */
@DisplayName("docs/configuration.md")
class ConfigurationDocsTests {

    private static final Path DOCS = Path.of("..", "docs");
    private static final Path REFERENCE = DOCS.resolve("configuration.md");

    /** The keys {@link Settings} reads; every other key of {@link MeasureResources} is read by ReportSettings. */
    private static final Set<String> CLASS_KEYS = Set.of(MeasureResources.SAMPLING_INTERVAL_KEY,
            MeasureResources.PROBE_KEY, MeasureResources.REPORT_DIR_KEY, MeasureResources.MEMORY_WARNING_KEY,
            MeasureResources.REQUIRE_DOCKER_KEY, MeasureResources.STRICT_KEY);

    private static final Pattern KEY_CELL = Pattern.compile("`(vitals\\.[A-Za-z.]+)(<metric>)?`");
    private static final Pattern PARAMETER_MESSAGE =
            Pattern.compile("Invalid value '(.*)' for configuration parameter '(vitals\\.[A-Za-z.]+)': .*");

    /** One row of a table with a Key and a Default column. */
    record Row(int line, String key, String defaultValue) {
    }

    @Test
    @DisplayName("lists every key exactly once")
    void everyKeyOnce() {
        List<String> documented = rows().stream().map(Row::key).toList();
        assertThat(documented).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(SettingKeys.all());
    }

    @Test
    @DisplayName("gives each key the code's default: setting a key to its documented default changes nothing")
    void defaultsAreTheCodes() {
        List<String> checked = new ArrayList<>();
        for (Row row : rows()) {
            Optional<String> value = literal(row.defaultValue());
            if (value.isEmpty()) {
                // "none", or the value of another key: asserted below and by the typed views' own tests
                continue;
            }
            String key = row.key();
            Map<String, String> set = Map.of(key, value.get());
            if (key.equals(TensorFlowContainer.IMAGE_PROPERTY)) {
                assertThat(value.get()).as(key).isEqualTo(TensorFlowContainer.DEFAULT_IMAGE);
            } else if (key.equals(MeasureResources.AGENT_IMAGE_KEY)) {
                assertThat(value.get()).as(key).isEqualTo(io.vitals.internal.agent.EngineAgent.DEFAULT_IMAGE);
            } else if (CLASS_KEYS.contains(key)) {
                assertThat(settings(set)).as("line %d: %s=%s", row.line(), key, value.get())
                        .isEqualTo(settings(Map.of()));
            } else {
                assertThat(ReportSettings.from(lookup(set))).as("line %d: %s=%s", row.line(), key, value.get())
                        .isEqualTo(ReportSettings.defaults());
            }
            checked.add(key);
        }
        assertThat(checked).as("keys whose documented default was checked").hasSizeGreaterThanOrEqualTo(14);

        ReportSettings defaults = ReportSettings.defaults();
        assertThat(defaults.baseline()).isEmpty();
        assertThat(defaults.history().file()).isEmpty();
        assertThat(defaults.history().runId()).isEmpty();
        assertThat(System.getProperty(TensorFlowContainer.TRAIN_ARGS_PROPERTY)).isNull();
    }

    @Test
    @DisplayName("quotes the code's messages for bad values")
    void quotesTheMessages() {
        List<String> quoted = checkedBlock();
        assertThat(quoted).isNotEmpty();
        for (String line : quoted) {
            Throwable failure;
            Matcher parameter = PARAMETER_MESSAGE.matcher(line);
            if (line.startsWith("Invalid @MeasureResources(samplingInterval = \"fast\")")) {
                failure = catchThrowable(() -> Settings.resolve(
                        Optional.of(FastInterval.class.getAnnotation(MeasureResources.class)), key -> Optional.empty()));
            } else if (parameter.matches()) {
                Map<String, String> set = Map.of(parameter.group(2), parameter.group(1));
                failure = catchThrowable(() -> {
                    if (CLASS_KEYS.contains(parameter.group(2))) {
                        settings(set);
                    } else {
                        ReportSettings.from(lookup(set));
                    }
                });
            } else {
                throw new AssertionError("no fixture for the quoted message: " + line);
            }
            assertThat(failure).as(line).isNotNull();
            assertThat(failure.getMessage()).isEqualTo(line);
        }
    }

    @Test
    @DisplayName("no other page repeats a key in a table")
    void noOtherTableOfKeys() throws IOException {
        List<String> repeats = new ArrayList<>();
        List<Path> pages = new ArrayList<>(markdown(DOCS));
        pages.add(Path.of("..", "README.md"));
        for (Path page : pages) {
            if (page.equals(REFERENCE)) {
                continue;
            }
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("|") && Arrays.stream(line.split("\\|")).limit(3).anyMatch(this::isKey)) {
                    repeats.add(page.getFileName() + ":" + (i + 1) + ": " + line);
                }
            }
        }
        assertThat(repeats).as("table rows of keys outside configuration.md; link to it instead").isEmpty();
    }

    private boolean isKey(String cell) {
        Matcher key = KEY_CELL.matcher(cell.strip());
        return key.matches() && SettingKeys.all().contains(key.group(1));
    }

    private static Settings settings(Map<String, String> config) {
        return Settings.resolve(Optional.empty(), lookup(config));
    }

    private static Function<String, Optional<String>> lookup(Map<String, String> values) {
        return key -> Optional.ofNullable(values.get(key));
    }

    /** A default cell's value when it is one literal in backticks (not a key); empty for "none" and the like. */
    private static Optional<String> literal(String cell) {
        Matcher code = Pattern.compile("`([^`]*)`").matcher(cell);
        if (!cell.startsWith("`") || !code.find() || code.group(1).startsWith("vitals.")) {
            return Optional.empty();
        }
        return Optional.of(code.group(1));
    }

    /** The rows of every table with a Key and a Default column; a {@code <metric>} key is its prefix key. */
    private static List<Row> rows() {
        List<String> lines = read(REFERENCE);
        List<Row> rows = new ArrayList<>();
        int keyColumn = -1;
        int defaultColumn = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                keyColumn = -1;
                continue;
            }
            List<String> cells = cells(line);
            if (cells.contains("Key") && cells.contains("Default")) {
                keyColumn = cells.indexOf("Key");
                defaultColumn = cells.indexOf("Default");
            } else if (keyColumn >= 0 && !line.startsWith("|---")) {
                Matcher key = KEY_CELL.matcher(cells.get(keyColumn));
                assertThat(key.matches()).as("a key in line %d: %s", i + 1, line).isTrue();
                // group 1 of "vitals.tolerance.<metric>" is the prefix key, "vitals.tolerance."
                rows.add(new Row(i + 1, key.group(1), cells.get(defaultColumn)));
            }
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        return Arrays.stream(inner.split("\\|", -1)).map(String::strip).toList();
    }

    /** The fenced block after {@code <!-- checked by ConfigurationDocsTests -->}. */
    private static List<String> checkedBlock() {
        List<String> lines = read(REFERENCE);
        int marker = lines.indexOf("<!-- checked by ConfigurationDocsTests -->");
        assertThat(marker).as("marker in " + REFERENCE).isNotNegative();
        assertThat(lines.get(marker + 1)).startsWith("```");
        List<String> block = new ArrayList<>();
        for (int i = marker + 2; !lines.get(i).startsWith("```"); i++) {
            block.add(lines.get(i));
        }
        return block;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> markdown(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.toString().endsWith(".md")).sorted().toList();
        }
    }

    @MeasureResources(samplingInterval = "fast")
    static class FastInterval {
    }
}
