package io.vitals.internal.probe.cgroupfs;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;

import org.apiguardian.api.API;

/**
 * The byte scanning the cgroup file parsers share: tokens, lines and decimal numbers in {@code text[from, to)},
 * found without allocating, since the sampler parses every container's files every few milliseconds. Only the
 * failure paths build strings.
 */
@API(status = INTERNAL, since = "0.1")
public final class ByteScan {

    private ByteScan() {
    }

    public static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    public static int skipSpaces(byte[] text, int from, int to) {
        int i = from;
        while (i < to && isSpace(text[i])) {
            i++;
        }
        return i;
    }

    /** Like {@link #skipSpaces} but also over line breaks, for a value the kernel may wrap in blank lines. */
    public static int skipBlank(byte[] text, int from, int to) {
        int i = from;
        while (i < to && (isSpace(text[i]) || text[i] == '\n')) {
            i++;
        }
        return i;
    }

    public static int tokenEnd(byte[] text, int from, int to) {
        int i = from;
        while (i < to && !isSpace(text[i])) {
            i++;
        }
        return i;
    }

    public static int lineEnd(byte[] text, int from, int length) {
        int i = from;
        while (i < length && text[i] != '\n') {
            i++;
        }
        return i;
    }

    public static boolean startsWith(byte[] text, int from, int to, String prefix) {
        if (to - from < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (text[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The tokens of {@code text[from, to)} separated by spaces. */
    public static int fieldCount(byte[] text, int from, int to) {
        int count = 0;
        int i = skipSpaces(text, from, to);
        while (i < to) {
            count++;
            i = skipSpaces(text, tokenEnd(text, i, to), to);
        }
        return count;
    }

    /** {@code text[from, to)} as a string, for error messages and one-off maps. */
    public static String text(byte[] text, int from, int to) {
        return new String(text, from, to - from, StandardCharsets.US_ASCII);
    }

    /**
     * A decimal number in {@code text[from, to)}, or {@link CgroupFiles#ABSENT} if it is not one this fast path
     * takes (no digits, a sign other than '-', overflow); callers then ask {@link Long#parseLong} for the verdict.
     */
    private static long digits(byte[] text, int from, int to) {
        int i = from;
        boolean negative = i < to && text[i] == '-';
        if (negative) {
            i++;
        }
        if (i == to || to - i > 18) {
            return CgroupFiles.ABSENT; // 19 digits may overflow: let Long.parseLong decide
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                return CgroupFiles.ABSENT;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /** Parses a number, throwing {@link NumberFormatException} as {@link Long#parseLong} would. */
    public static long number(byte[] text, int from, int to) {
        long fast = digits(text, from, to);
        return fast != CgroupFiles.ABSENT ? fast : Long.parseLong(text(text, from, to));
    }
}
