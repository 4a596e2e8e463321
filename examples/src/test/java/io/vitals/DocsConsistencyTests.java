package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Keeps README.md and docs/*.md honest, without Docker.
 *
 * <p>The snippet convention: a Java block in the docs is a copy of a tagged region of a compiled source file. The
 * line before the fence is {@code <!-- snippet: PATH#TAG -->}, PATH relative to the repository root (e.g.
 * {@code examples/src/test/java/io/vitals/docs/BudgetsDocExamples.java}) or a bare class name (e.g.
 * {@code AssertionsDocExamplesTests}) found once under some module's {@code src/test/java}. The region is every line
 * between {@code // tag::TAG[]} and {@code // end::TAG[]} (several regions of one tag are joined; tag lines inside a
 * region are left out), dedented. Blocks compare with trailing spaces and leading/trailing blank lines ignored.
 */
@DisplayName("Docs consistency")
class DocsConsistencyTests {

    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*snippet:\\s*(\\S+?)#(\\S+)\\s*-->\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)\\s*([^\\s`]*).*$");
    private static final Pattern TAG_LINE = Pattern.compile("^\\s*//\\s*(tag|end)::([^\\[]+)\\[\\]\\s*$");
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

    private final Path root = repositoryRoot();

    @Test
    @DisplayName("every snippet marker's block equals the tagged region of the file it names")
    void snippetsMatchTheirSources() {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            for (Block block : blocks(doc)) {
                if (block.marker().isEmpty()) {
                    continue;
                }
                Marker marker = block.marker().get();
                String where = relative(doc) + ":" + block.line() + " (" + marker.path() + "#" + marker.tag() + ")";
                Optional<Path> source = resolve(marker.path(), problems, where);
                if (source.isEmpty()) {
                    continue;
                }
                List<String> region = taggedRegion(source.get(), marker.tag());
                if (region.isEmpty()) {
                    problems.add(where + ": no region tagged '" + marker.tag() + "' in " + relative(source.get()));
                    continue;
                }
                List<String> expected = normalise(region);
                List<String> actual = normalise(block.code());
                if (!expected.equals(actual)) {
                    problems.add(where + ": the block differs from the tagged region; it should read:\n"
                            + String.join("\n", expected) + "\n--- but reads:\n" + String.join("\n", actual));
                }
            }
        }
        assertThat(problems).as("snippets out of date").isEmpty();
    }

    @Test
    @DisplayName("every Java block has a snippet marker, and every marker a block")
    void everyJavaBlockComesFromCompiledCode() {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            List<String> lines = read(doc);
            for (Block block : blocks(doc)) {
                if (block.language().equals("java") && block.marker().isEmpty()) {
                    problems.add(relative(doc) + ":" + block.line() + ": a ```java block without a snippet marker "
                            + "(<!-- snippet: path/To.java#tag --> on the line before it)");
                }
            }
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                if (FENCE.matcher(lines.get(i)).matches()) {
                    inFence = !inFence;
                    continue;
                }
                if (!inFence && MARKER.matcher(lines.get(i)).matches()) {
                    Matcher next = i + 1 < lines.size() ? FENCE.matcher(lines.get(i + 1)) : null;
                    if (next == null || !next.matches() || !next.group(2).equals("java")) {
                        problems.add(relative(doc) + ":" + (i + 1) + ": a snippet marker not directly followed "
                                + "by a ```java block");
                    }
                }
            }
        }
        assertThat(problems).as("hand-copied Java or stray markers").isEmpty();
    }

    @Test
    @DisplayName("every relative link and image resolves to a file in the repository")
    void relativeLinksResolve() {
        List<String> problems = new ArrayList<>();
        for (Path doc : documents()) {
            List<String> lines = read(doc);
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (FENCE.matcher(line).matches()) {
                    inFence = !inFence;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                String text = INLINE_CODE.matcher(line).replaceAll("");
                List<String> targets = new ArrayList<>();
                Matcher inline = INLINE_LINK.matcher(text);
                while (inline.find()) {
                    targets.add(inline.group(1));
                }
                Matcher reference = REFERENCE_LINK.matcher(text);
                if (reference.matches()) {
                    targets.add(reference.group(1));
                }
                for (String target : targets) {
                    if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*") || target.startsWith("#")) {
                        continue; // http(s), mailto, ...; in-page anchors
                    }
                    String path = target.replaceFirst("[#?].*$", "");
                    Path resolved = doc.getParent().resolve(path).normalize();
                    if (!resolved.startsWith(root) || !Files.exists(resolved)) {
                        problems.add(relative(doc) + ":" + (i + 1) + ": link to '" + target
                                + "' does not resolve to a file in the repository");
                    }
                }
            }
        }
        assertThat(problems).as("broken relative links").isEmpty();
    }

    // --- Markdown ---

    private record Marker(String path, String tag) {
    }

    /** A fenced block: its language, its lines, the line number of its opening fence, and its marker if any. */
    private record Block(String language, List<String> code, int line, Optional<Marker> marker) {
    }

    private List<Path> documents() {
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    private static List<Block> blocks(Path doc) {
        List<String> lines = read(doc);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String fence = open.group(1);
            String language = open.group(2);
            List<String> code = new ArrayList<>();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).strip().startsWith(fence.substring(0, 3))) {
                code.add(lines.get(j));
                j++;
            }
            Optional<Marker> marker = Optional.empty();
            if (i > 0) {
                Matcher m = MARKER.matcher(lines.get(i - 1));
                if (m.matches()) {
                    marker = Optional.of(new Marker(m.group(1), m.group(2)));
                }
            }
            blocks.add(new Block(language, code, i + 1, marker));
            i = j;
        }
        return blocks;
    }

    // --- Sources ---

    /** A path relative to the root, or a bare class name found once under a module's src/test/java. */
    private Optional<Path> resolve(String path, List<String> problems, String where) {
        if (path.contains("/")) {
            Path file = root.resolve(path).normalize();
            if (!Files.isRegularFile(file)) {
                problems.add(where + ": " + path + " does not exist");
                return Optional.empty();
            }
            return Optional.of(file);
        }
        String fileName = path.endsWith(".java") ? path : path + ".java";
        List<Path> found;
        try (Stream<Path> files = Files.walk(root)) {
            found = files.filter(p -> p.getFileName().toString().equals(fileName))
                    .filter(p -> relative(p).contains("/src/test/java/"))
                    .filter(p -> !relative(p).contains("/target/"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.size() != 1) {
            problems.add(where + ": expected exactly one " + fileName + " under */src/test/java, found " + found);
            return Optional.empty();
        }
        return Optional.of(found.get(0));
    }

    /** The lines of every region tagged {@code tag}, joined, without tag lines; empty if there is none. */
    static List<String> taggedRegion(Path source, String tag) {
        List<String> region = new ArrayList<>();
        boolean inside = false;
        for (String line : read(source)) {
            Matcher m = TAG_LINE.matcher(line);
            if (m.matches()) {
                if (m.group(2).equals(tag)) {
                    inside = m.group(1).equals("tag");
                }
                continue;
            }
            if (inside) {
                region.add(line);
            }
        }
        return region;
    }

    /** Trailing spaces trimmed, leading and trailing blank lines dropped, dedented by the common indentation. */
    static List<String> normalise(List<String> lines) {
        List<String> trimmed = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
        while (!trimmed.isEmpty() && trimmed.get(0).isEmpty()) {
            trimmed.remove(0);
        }
        while (!trimmed.isEmpty() && trimmed.get(trimmed.size() - 1).isEmpty()) {
            trimmed.remove(trimmed.size() - 1);
        }
        int indent = trimmed.stream().filter(l -> !l.isEmpty())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return trimmed.stream().map(l -> l.isEmpty() ? l : l.substring(indent)).toList();
    }

    // --- Files ---

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("README.md")) && Files.isDirectory(candidate.resolve("docs"))
                    && Files.isDirectory(candidate.resolve("extension"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("No repository root (README.md, docs/, extension/) above " + dir);
    }

    private String relative(Path path) {
        return root.relativize(path.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
