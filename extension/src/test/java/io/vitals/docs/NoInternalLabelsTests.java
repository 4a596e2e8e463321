package io.vitals.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The repository speaks to its users: no name of an internal work round (a numbered working session or round, a
 * private CI run label) in its docs, code, comments, CHANGELOG or scripts. Such names mean nothing to a reader, and
 * a figure dated by one cannot be found again; a date and a commit can.
 *
 * <p>What is searched: README.md, CHANGELOG.md, docs/, extension/src, examples/ (sources, setup scripts, images),
 * .ci and the poms, every text file in them, build output ({@code target}) left out. Words that merely look alike
 * are allowed: an HTTP, SSH, TLS, login, user or browser session with a number, rounding a decimal ("round 0.5"),
 * and run ids with a hyphen such as the {@code ci-42} of the tests of {@code vitals.runId}.
 */
@DisplayName("No internal work-round labels in the repository")
class NoInternalLabelsTests {

    private static final Path ROOT = Path.of("..");
    private static final List<String> SEARCHED = List.of("README.md", "CHANGELOG.md", "docs", "extension/src",
            "examples", ".ci", "pom.xml", "extension/pom.xml");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "node_modules", ".git");
    private static final Set<String> BINARY = Set.of("png", "jpg", "jpeg", "gif", "ico", "jar", "class", "gz", "zip",
            "tgz", "bin", "so");

    /** A numbered session or round (not an HTTP session, not "round 0.5"), a CI run label ("ci" and a number), a sprint. */
    private static final Pattern LABEL = Pattern.compile(
            "(?<!http |https |ssh |tls |login |user |browser )\\bsession[ -]\\d+\\b"
                    + "|\\bround[ -]\\d+(?![.,]?\\d)"
                    + "|\\bci\\d+\\b"
                    + "|\\bsprint[ -]\\d+\\b",
            Pattern.CASE_INSENSITIVE);

    @Test
    @DisplayName("no numbered session, round, sprint or ciN label in any text file: each hit names file, line, text")
    void noLabels() {
        List<String> hits = new ArrayList<>();
        for (Path file : files()) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LABEL.matcher(lines.get(i));
                while (m.find()) {
                    hits.add(ROOT.relativize(file) + ":" + (i + 1) + ": '" + m.group() + "' in: "
                            + lines.get(i).strip());
                }
            }
        }
        assertThat(hits).as("internal work-round labels (say what was done, with a date or commit)").isEmpty();
    }

    @Test
    @DisplayName("the pattern finds the labels it is for and leaves the look-alikes alone")
    void patternItself() {
        // the labels are put together here, so that this file holds none itself
        assertThat(Stream.of("figures of session " + 12, "Round " + 3 + " of the work", "the ci" + 37 + " run",
                "SESSION-" + 4, "sprint " + 2 + " notes")).allMatch(text -> LABEL.matcher(text).find());
        assertThat(Stream.of("an HTTP session 2 times", "round 0.5 up", "the ReportSession's close", "ci-42",
                "the first round warms up", "rounds", "session", "docker"))
                .noneMatch(text -> LABEL.matcher(text).find());
    }

    @Test
    @DisplayName("the search sees the repository: the docs and this very class are among its files")
    void searchSeesTheRepository() {
        List<Path> files = files();
        assertThat(files).contains(ROOT.resolve("docs/benchmarks.md"), ROOT.resolve("CHANGELOG.md"),
                ROOT.resolve("extension/src/test/java/io/vitals/docs/NoInternalLabelsTests.java"));
    }

    private static List<Path> files() {
        List<Path> files = new ArrayList<>();
        for (String searched : SEARCHED) {
            Path start = ROOT.resolve(searched);
            if (!Files.exists(start)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(start)) {
                walk.filter(Files::isRegularFile)
                        .filter(p -> !BINARY.contains(extension(p)))
                        .filter(p -> StreamSupport.stream(ROOT.relativize(p).spliterator(), false)
                                .noneMatch(part -> SKIPPED_DIRECTORIES.contains(part.toString())))
                        .forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private static String extension(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    // a file that is not UTF-8 text (a recorded binary fixture) is not prose: no label to find in it
    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
