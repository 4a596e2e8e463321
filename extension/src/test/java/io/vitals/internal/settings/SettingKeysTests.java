package io.vitals.internal.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every {@code vitals.*} key is declared once, as a constant on the public class it configures, and main code
 * refers to that constant; a second literal of a key anywhere else is how two definitions (and two defaults) drift
 * apart.
 */
@DisplayName("Setting keys")
class SettingKeysTests {

    private static final Path MAIN = Path.of("src", "main", "java");

    /** The string literals starting with "vitals." (the regex skips escaped quotes inside a literal). */
    private static final Pattern KEY_LITERAL = Pattern.compile("\"(vitals\\.(?:[^\"\\\\]|\\\\.)*)\"");

    /** The declaring classes (see {@link SettingKeys#DECLARING}) by source file. */
    private static final Map<Path, Class<?>> DECLARING = SettingKeys.DECLARING.stream()
            .collect(Collectors.toMap(SettingKeysTests::source, type -> type));

    /** Literals that start with "vitals." but are no keys, and why. */
    private static final Map<String, String> NOT_KEYS = Map.of(
            "vitals.json", "the run index's file name",
            "vitals.prom", "the Prometheus file's name",
            "vitals.", "the prefix of the JUnit report entries, followed by the container's name");

    @Test
    @DisplayName("no main source outside the declaring classes has a \"vitals.*\" key literal")
    void keysAreDeclaredOnlyOnTheirPublicClass() throws IOException {
        List<String> strays = new ArrayList<>();
        for (Path file : javaSources()) {
            if (DECLARING.containsKey(MAIN.relativize(file))) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher literal = KEY_LITERAL.matcher(lines.get(i));
                while (literal.find()) {
                    if (!NOT_KEYS.containsKey(literal.group(1))) {
                        strays.add(MAIN.relativize(file) + ":" + (i + 1) + ": \"" + literal.group(1) + "\"");
                    }
                }
            }
        }
        assertThat(strays).as("\"vitals.*\" literals outside %s; refer to the key constant instead",
                DECLARING.values().stream().map(Class::getSimpleName).sorted().toList()).isEmpty();
    }

    @Test
    @DisplayName("each key is declared by exactly one constant, and every key literal of a declaring class is one")
    void eachKeyIsDeclaredOnce() throws IOException {
        Map<String, List<String>> constantsByKey = new HashMap<>();
        for (Class<?> type : DECLARING.values()) {
            SettingKeys.constants(type).forEach((name, key) -> constantsByKey
                    .computeIfAbsent(key, k -> new ArrayList<>()).add(type.getSimpleName() + "." + name));
        }
        assertThat(constantsByKey).as("keys declared more than once")
                .allSatisfy((key, constants) -> assertThat(constants).as(key).hasSize(1));

        for (Map.Entry<Path, Class<?>> declaring : DECLARING.entrySet()) {
            Set<String> literals = literals(MAIN.resolve(declaring.getKey()));
            assertThat(literals).as("key literals of %s that are not the value of one of its key constants",
                    declaring.getValue().getSimpleName())
                    .isSubsetOf(SettingKeys.constants(declaring.getValue()).values());
        }
    }

    @Test
    @DisplayName("the declaring classes declare the keys every typed view reads, and no others")
    void theKnownKeys() {
        assertThat(SettingKeys.all()).containsExactlyInAnyOrder(
                "vitals.samplingInterval", "vitals.probe", "vitals.agent.image", "vitals.agent.resetPeaks",
                "vitals.reportDir",
                "vitals.requireDocker", "vitals.strict", "vitals.memoryWarning", "vitals.console",
                "vitals.publishJson", "vitals.prometheus.series", "vitals.baseline",
                "vitals.baseline.update", "vitals.baseline.mode", "vitals.baseline.runs", "vitals.tolerance",
                "vitals.tolerance.", "vitals.history", "vitals.history.update", "vitals.history.runs",
                "vitals.stats.alpha", "vitals.runId", "vitals.testbed", "vitals.testbed.ignore", "vitals.commit",
                "vitals.branch", "vitals.report.expectedToFailBy", "vitals.tensorflow.image", "vitals.tensorflow.trainArgs",
                "vitals.gpu", "vitals.gpu.nvml", "vitals.gpu.nvidiaSmi");
    }

    private static Set<String> literals(Path file) throws IOException {
        Matcher literal = KEY_LITERAL.matcher(Files.readString(file));
        Set<String> found = new TreeSet<>();
        while (literal.find()) {
            found.add(literal.group(1));
        }
        return found;
    }

    private static Path source(Class<?> type) {
        return Path.of(type.getName().replace('.', '/') + ".java");
    }

    private static List<Path> javaSources() {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
