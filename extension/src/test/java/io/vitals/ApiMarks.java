package io.vitals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * The rule for apiguardian marks, checked on compiled classes: every public type under the internal package says
 * {@code @API(status = INTERNAL)} (itself or through the type that encloses it, as apiguardian lets a type's status
 * cover its members), and every public top-level type outside it carries an {@code @API} of some status. Compiled
 * classes rather than sources, so a type that javac makes public is checked the way users see it.
 */
final class ApiMarks {

    private final String internalPrefix;

    /** @param internalPackage the package whose public types, and those of its subpackages, must be INTERNAL */
    ApiMarks(String internalPackage) {
        this.internalPrefix = internalPackage + ".";
    }

    /**
     * The classes compiled under {@code root} (a class-path directory) in {@code packageName} and its subpackages,
     * loaded without running their initialisers.
     */
    static List<Class<?>> classesIn(Path root, String packageName) throws IOException {
        Path start = root.resolve(packageName.replace('.', '/'));
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(start)) {
            for (Path file : (Iterable<Path>) files.filter(ApiMarks::isTypeFile).sorted()::iterator) {
                String relative = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                classes.add(load(relative.substring(0, relative.length() - ".class".length())));
            }
        }
        return List.copyOf(classes);
    }

    /** One sentence per type that breaks the rule, naming the type and what it lacks. */
    List<String> violations(Collection<Class<?>> classes) {
        List<String> violations = new ArrayList<>();
        for (Class<?> type : classes) {
            if (!effectivelyPublic(type)) {
                continue;
            }
            Optional<API> status = effectiveStatus(type);
            if (type.getName().startsWith(internalPrefix)) {
                if (status.map(api -> api.status() != API.Status.INTERNAL).orElse(true)) {
                    violations.add(type.getName() + " is public under " + internalPrefix + "* but "
                            + status.map(api -> "is @API(status = " + api.status() + ")").orElse("has no @API")
                            + ", not @API(status = INTERNAL)");
                }
            } else if (type.getEnclosingClass() == null && status.isEmpty()) {
                violations.add(type.getName() + " is a public top-level type without @API");
            }
        }
        return List.copyOf(violations);
    }

    private static boolean isTypeFile(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".class") && !name.equals("package-info.class") && !name.equals("module-info.class");
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ApiMarks.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a class file on the class path does not load: " + name, e);
        }
    }

    /** Public, and so is every type around it: a public member of a package-private class is not public API. */
    private static boolean effectivelyPublic(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /** The type's own mark, else the nearest enclosing type's. */
    private static Optional<API> effectiveStatus(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            API api = t.getAnnotation(API.class);
            if (api != null) {
                return Optional.of(api);
            }
        }
        return Optional.empty();
    }
}
