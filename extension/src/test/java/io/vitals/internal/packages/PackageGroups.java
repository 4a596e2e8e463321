package io.vitals.internal.packages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which of a few package groups depend on which, read from source text: the {@code import} lines and the fully
 * qualified names in code, with comments and string literals left out (a {@code {@link}} or a class named in a
 * message is no dependency). A group is a package and its subpackages, e.g. {@code io.vitals.internal.report}.
 * No library reads the byte code here: the project takes no new dependency for a guard.
 */
final class PackageGroups {

    /** One dependency of one group on another, with the references that make it, e.g. "Foo.java: a.b.Bar". */
    record Edge(String from, String to) {
        @Override
        public String toString() {
            return from + " -> " + to;
        }
    }

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    // a qualified name: the project's root package followed by at least one more name, e.g. io.vitals.internal.report.X
    private static final Pattern QUALIFIED = Pattern.compile("\\b(io\\.vitals(?:\\.\\w+)+)");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'", Pattern.DOTALL);

    private final Map<String, String> groups;
    private final Map<Edge, Set<String>> edges = new TreeMap<>(
            (a, b) -> a.toString().compareTo(b.toString()));

    /** @param groups short name by package root, e.g. "report" for {@code io.vitals.internal.report} */
    PackageGroups(Map<String, String> groups) {
        this.groups = Map.copyOf(groups);
    }

    /**
     * Every package declared under {@code root} as a group of its own, named by the package (the root package
     * {@code io.vitals} included), with the references of every file added: no package stands in for its subpackages.
     */
    static PackageGroups everyPackage(Path root) {
        Map<String, String> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher declared = PACKAGE.matcher(Files.readString(file));
                if (declared.find()) {
                    packages.put(declared.group(1), declared.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PackageGroups(packages).scan(root);
    }

    /** Adds the references of every {@code .java} file under {@code root}. */
    PackageGroups scan(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                add(root.relativize(file).toString(), Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Adds the references of one source file, {@code source}, named {@code file} in messages. */
    PackageGroups add(String file, String source) {
        Matcher declared = PACKAGE.matcher(source);
        if (!declared.find()) {
            return this;
        }
        Optional<String> from = group(declared.group(1));
        if (from.isEmpty()) {
            return this;
        }
        Matcher name = QUALIFIED.matcher(COMMENTS_AND_STRINGS.matcher(source).replaceAll(" "));
        while (name.find()) {
            String referenced = name.group(1);
            group(referenced).filter(to -> !to.equals(from.get())).ifPresent(to -> edges
                    .computeIfAbsent(new Edge(from.get(), to), e -> new LinkedHashSet<>())
                    .add(file + ": " + referenced));
        }
        return this;
    }

    /** Every dependency between two groups, with the references behind it. */
    Map<Edge, Set<String>> edges() {
        return edges;
    }

    /** The edges that lie on a cycle: those whose target leads back to their source. */
    List<Edge> cycleEdges() {
        List<Edge> onCycle = new ArrayList<>();
        for (Edge edge : edges.keySet()) {
            if (reaches(edge.to(), edge.from(), new LinkedHashSet<>())) {
                onCycle.add(edge);
            }
        }
        return onCycle;
    }

    /** A failure message naming each edge of {@code cycle} and the references that make it. */
    String describe(List<Edge> cycle) {
        StringBuilder message = new StringBuilder("import cycle among " + new TreeMap<>(groups).values() + ":");
        for (Edge edge : cycle) {
            message.append("\n  ").append(edge);
            edges.get(edge).forEach(reference -> message.append("\n      ").append(reference));
        }
        return message.toString();
    }

    private boolean reaches(String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        return edges.keySet().stream().filter(e -> e.from().equals(from))
                .anyMatch(e -> reaches(e.to(), target, seen));
    }

    // the longest root that names the package or one of its parents: a class name is then inside its package
    private Optional<String> group(String qualified) {
        return groups.keySet().stream()
                .filter(root -> qualified.equals(root) || qualified.startsWith(root + "."))
                .max((a, b) -> Integer.compare(a.length(), b.length())).map(groups::get);
    }
}
