package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import org.apiguardian.api.API;

/**
 * Names a test gets in reports: a stable key for the baseline, a short label for tables, and filesystem-safe
 * file names. File names keep only {@code [A-Za-z0-9._-]} and brackets, which every common filesystem and shell
 * accept; long names are cut and get a hash of the full name, so they stay short and unique.
 */
@API(status = INTERNAL, since = "0.1")
public final class ReportNames {

    private static final int MAX_NAME = 80;

    private ReportNames() {
    }

    /**
     * The key of a test in the baseline: {@code com.example.TrainTests#train [2] 128, 4}. Built from names, not
     * from JUnit's unique ID, so that it survives a change of engine or a moved {@code @Nested} class id format.
     */
    public static String testKey(TestResult result) {
        return result.className() + "#" + label(result);
    }

    /** What a class's own entry ({@link TestResult#isClassEntry()}) is called where a test's method would be. */
    public static final String CLASS_LABEL = "(class)";

    /**
     * The method and, for an invocation, its parameters: {@code train [2] 128, 4}; {@value #CLASS_LABEL} for a
     * class's own entry.
     */
    public static String label(TestResult result) {
        if (result.isClassEntry()) {
            return CLASS_LABEL;
        }
        return result.methodName() + result.parameters().map(p -> " " + p).orElse("");
    }

    /** The class without its package: {@code TrainTests}, {@code OuterTests$Inner}. */
    public static String simpleClassName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** The directory of a class's files: its binary name, made safe. */
    public static String classDirectory(String className) {
        return safe(className.replace('$', '.'));
    }

    /**
     * The file name (without extension) of a test: {@code train}, or for an invocation {@code train[2]-128-4}, its
     * parameters made safe. A leading "[n]" of JUnit's invocation names is kept as is.
     */
    public static String fileStem(TestResult result) {
        if (result.isClassEntry()) {
            return "_class"; // no method can be called that: "class" is a keyword, and safe() keeps '_'
        }
        String stem = result.methodName() + result.parameters().map(p -> "-" + p.strip()).orElse("");
        // "train-[2] 128" reads better as "train[2]-128" (a literal search: replaceFirst compiled a regex per test)
        int invocation = stem.indexOf("-[");
        if (invocation >= 0) {
            stem = stem.substring(0, invocation) + stem.substring(invocation + 1);
        }
        return safe(stem);
    }

    /** Replaces every character outside {@code [A-Za-z0-9._\-\[\]]} by '-', collapsing runs; cuts long names. */
    public static String safe(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '[' || c == ']' || c == '-';
            if (ok) {
                out.append(c);
            } else if (out.length() > 0 && out.charAt(out.length() - 1) != '-') {
                out.append('-');
            }
        }
        while (out.length() > 0 && (out.charAt(out.length() - 1) == '-' || out.charAt(out.length() - 1) == '.')) {
            out.setLength(out.length() - 1);
        }
        // A name of dots only ("." or "..") would climb out of the report directory.
        String safe = isDotsOnly(out) ? "_" + out : out.toString();
        if (safe.length() > MAX_NAME) {
            safe = safe.substring(0, MAX_NAME - 9) + "-" + hash(name);
        }
        return safe;
    }

    /** Whether {@code name} is empty or all dots; a loop, as this runs for every test's file. */
    private static boolean isDotsOnly(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) != '.') {
                return false;
            }
        }
        return true;
    }

    /** Eight hex digits of a CRC of {@code text}: enough to tell apart names that share a long prefix. */
    public static String hash(String text) {
        CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", crc.getValue());
    }
}
