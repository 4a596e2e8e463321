package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Parsers for the few shapes cgroup files come in: a single value, {@code key value} lines, pressure lines and
 * per-device I/O lines. Every method names the file in its error, since "NumberFormatException: For input string"
 * alone tells a user nothing.
 *
 * <p>The parsers work on the bytes of a {@link CgroupFile} and allocate nothing unless they fail: the sampler runs
 * them for every container every few milliseconds, and {@code String.split} with its regular expression cost more
 * than the kernel's own read. The {@code String} and {@code Path} variants are for one-off reads and tests; they
 * run the same byte parsers.
 */
final class CgroupFiles {

    /** cgroup v1 writes "unlimited" as a page-aligned value near 2^63; anything this large means no limit. */
    static final long UNLIMITED_THRESHOLD = 1L << 62;

    /** "No value": {@code max}, an empty file, or a key the file did not have. No counter ever reaches it. */
    static final long ABSENT = Long.MIN_VALUE;

    private CgroupFiles() {
    }

    /** The keys a reader wants from a {@code key value} file; slot {@code i} of the values is key {@code i}. */
    static final class Keys {

        private final byte[][] names;

        Keys(String... names) {
            this.names = new byte[names.length][];
            for (int i = 0; i < names.length; i++) {
                this.names[i] = names[i].getBytes(StandardCharsets.US_ASCII);
            }
        }

        int size() {
            return names.length;
        }

        long[] newValues() {
            long[] values = new long[names.length];
            Arrays.fill(values, ABSENT);
            return values;
        }

        int indexOf(byte[] text, int from, int to) {
            int length = to - from;
            for (int i = 0; i < names.length; i++) {
                byte[] name = names[i];
                if (name.length == length && Arrays.equals(name, 0, length, text, from, to)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** A value read with {@link Keys}, or {@code otherwise} where the file had no such key. */
    static long orElse(long value, long otherwise) {
        return value == ABSENT ? otherwise : value;
    }

    static OptionalLong optional(long value) {
        return value == ABSENT ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /** A limit: values at or above {@link #UNLIMITED_THRESHOLD} (v1) or {@code max} (v2) mean none. */
    static OptionalLong limit(long value) {
        return value == ABSENT || value >= UNLIMITED_THRESHOLD ? OptionalLong.empty() : OptionalLong.of(value);
    }

    // ---- byte scanning ----------------------------------------------------------------------------------------

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    private static int skipSpaces(byte[] text, int from, int to) {
        int i = from;
        while (i < to && isSpace(text[i])) {
            i++;
        }
        return i;
    }

    private static int tokenEnd(byte[] text, int from, int to) {
        int i = from;
        while (i < to && !isSpace(text[i])) {
            i++;
        }
        return i;
    }

    private static int lineEnd(byte[] text, int from, int length) {
        int i = from;
        while (i < length && text[i] != '\n') {
            i++;
        }
        return i;
    }

    private static boolean startsWith(byte[] text, int from, int to, String prefix) {
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

    private static String text(byte[] text, int from, int to) {
        return new String(text, from, to - from, StandardCharsets.US_ASCII);
    }

    /**
     * A decimal number in {@code text[from, to)}, or {@link #ABSENT} if it is not one this fast path takes (no
     * digits, a sign other than '-', overflow); callers then ask {@link Long#parseLong} for the verdict.
     */
    private static long digits(byte[] text, int from, int to) {
        int i = from;
        boolean negative = i < to && text[i] == '-';
        if (negative) {
            i++;
        }
        if (i == to || to - i > 18) {
            return ABSENT; // 19 digits may overflow: let Long.parseLong decide
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = text[i] - '0';
            if (digit < 0 || digit > 9) {
                return ABSENT;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /** Parses a number, throwing {@link NumberFormatException} as {@link Long#parseLong} would. */
    private static long number(byte[] text, int from, int to) {
        long fast = digits(text, from, to);
        return fast != ABSENT ? fast : Long.parseLong(text(text, from, to));
    }

    // ---- single values ----------------------------------------------------------------------------------------

    /** A single number; {@code max} or an empty file is {@link #ABSENT} (no limit / not present). */
    static long parseValue(byte[] text, int length, Path source) throws IOException {
        int from = skipSpaces(text, 0, length);
        int to = length;
        while (to > from && (isSpace(text[to - 1]) || text[to - 1] == '\n')) {
            to--;
        }
        from = skipBlank(text, from, to);
        if (from == to || (to - from == 3 && text[from] == 'm' && text[from + 1] == 'a' && text[from + 2] == 'x')) {
            return ABSENT;
        }
        try {
            return number(text, from, to);
        } catch (NumberFormatException e) {
            throw new IOException("Expected a number or 'max' in " + source + " but found '" + text(text, from, to)
                    + "'", e);
        }
    }

    private static int skipBlank(byte[] text, int from, int to) {
        int i = from;
        while (i < to && (isSpace(text[i]) || text[i] == '\n')) {
            i++;
        }
        return i;
    }

    static OptionalLong parseOptionalLong(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return optional(parseValue(bytes, bytes.length, source));
    }

    static byte[] read(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    /** Reads a single number; {@code max} or an empty file reads as empty (no limit / not present). */
    static OptionalLong readOptionalLong(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = read(file);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
        return optional(parseValue(bytes, bytes.length, file));
    }

    static long readLong(Path file) throws IOException {
        byte[] bytes = read(file);
        long value = parseValue(bytes, bytes.length, file);
        if (value == ABSENT) {
            throw new IOException("Expected a number in " + file + " but found '" + text(bytes, 0, bytes.length).trim()
                    + "'");
        }
        return value;
    }

    /** A limit, where values at or above {@link #UNLIMITED_THRESHOLD} (v1) or {@code max} (v2) mean none. */
    static OptionalLong readLimit(Path file) throws IOException {
        OptionalLong value = readOptionalLong(file);
        return value.isPresent() ? limit(value.getAsLong()) : value;
    }

    // ---- key value lines (memory.stat, cpu.stat, memory.events, oom_control, cpuacct.stat) --------------------

    /**
     * Reads the values of {@code keys} from {@code key value} lines into {@code values} ({@link #ABSENT} for keys
     * the file lacks). Every line must have that shape; values of other keys are not parsed.
     */
    static void parseKeyed(byte[] text, int length, Keys keys, long[] values, Path source) throws IOException {
        Arrays.fill(values, ABSENT);
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int keyFrom = skipSpaces(text, line, end);
            if (keyFrom < end) {
                int keyTo = tokenEnd(text, keyFrom, end);
                int valueFrom = skipSpaces(text, keyTo, end);
                int valueTo = tokenEnd(text, valueFrom, end);
                if (valueFrom == valueTo || skipSpaces(text, valueTo, end) != end) {
                    throw new IOException("Expected 'key value' lines in " + source + " but found '"
                            + text(text, line, end) + "'");
                }
                int slot = keys.indexOf(text, keyFrom, keyTo);
                if (slot >= 0) {
                    values[slot] = keyedNumber(text, keyFrom, keyTo, valueFrom, valueTo, source);
                }
            }
            line = end + 1;
        }
    }

    private static long keyedNumber(byte[] text, int keyFrom, int keyTo, int valueFrom, int valueTo, Path source)
            throws IOException {
        try {
            return number(text, valueFrom, valueTo);
        } catch (NumberFormatException e) {
            throw new IOException("Expected a number after '" + text(text, keyFrom, keyTo) + "' in " + source
                    + " but found '" + text(text, valueFrom, valueTo) + "'", e);
        }
    }

    /** Parses {@code key value} lines (memory.stat, cpu.stat, memory.events, oom_control); a missing file is empty. */
    static Map<String, Long> readFlatKeyed(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = read(file);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        return parseFlatKeyed(bytes, bytes.length, file);
    }

    static Map<String, Long> parseFlatKeyed(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return parseFlatKeyed(bytes, bytes.length, source);
    }

    /** Every key of the file, for one-off reads; the sampler uses {@link #parseKeyed} instead. */
    static Map<String, Long> parseFlatKeyed(byte[] text, int length, Path source) throws IOException {
        Map<String, Long> values = new HashMap<>();
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int keyFrom = skipSpaces(text, line, end);
            if (keyFrom < end) {
                int keyTo = tokenEnd(text, keyFrom, end);
                int valueFrom = skipSpaces(text, keyTo, end);
                int valueTo = tokenEnd(text, valueFrom, end);
                if (valueFrom == valueTo || skipSpaces(text, valueTo, end) != end) {
                    throw new IOException("Expected 'key value' lines in " + source + " but found '"
                            + text(text, line, end) + "'");
                }
                values.put(text(text, keyFrom, keyTo), keyedNumber(text, keyFrom, keyTo, valueFrom, valueTo, source));
            }
            line = end + 1;
        }
        return values;
    }

    // ---- pressure ---------------------------------------------------------------------------------------------

    /**
     * Parses a PSI file: {@code some avg10=0.00 avg60=0.00 avg300=0.00 total=4199} and the same for {@code full},
     * into {@code totals} = {some, full} in microseconds (a missing line is zero).
     */
    static void parsePressure(byte[] text, int length, long[] totals, Path source) throws IOException {
        totals[0] = 0;
        totals[1] = 0;
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int from = skipSpaces(text, line, end);
            if (from < end) {
                int kindTo = tokenEnd(text, from, end);
                int slot;
                if (kindTo - from == 4 && startsWith(text, from, kindTo, "some")) {
                    slot = 0;
                } else if (kindTo - from == 4 && startsWith(text, from, kindTo, "full")) {
                    slot = 1;
                } else {
                    throw new IOException("Unexpected line '" + text(text, line, end) + "' in " + source);
                }
                int field = skipSpaces(text, kindTo, end);
                while (field < end) {
                    int fieldTo = tokenEnd(text, field, end);
                    if (startsWith(text, field, fieldTo, "total=")) {
                        try {
                            totals[slot] = number(text, field + "total=".length(), fieldTo);
                        } catch (NumberFormatException e) {
                            throw new IOException("Bad total in '" + text(text, line, end) + "' in " + source, e);
                        }
                    }
                    field = skipSpaces(text, fieldTo, end);
                }
            }
            line = end + 1;
        }
    }

    static long[] parsePressure(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long[] totals = new long[2];
        parsePressure(bytes, bytes.length, totals, source);
        return totals;
    }

    /** Returns {some, full} totals in microseconds, or empty when the file does not exist. */
    static Optional<long[]> readPressure(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = read(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        long[] totals = new long[2];
        parsePressure(bytes, bytes.length, totals, file);
        return Optional.of(totals);
    }

    // ---- block I/O --------------------------------------------------------------------------------------------

    /** Whether a v1 blkio file has {@code MAJ:MIN Op bytes} lines (not just its {@code Total N} line). */
    static boolean hasDeviceLines(byte[] text, int length) {
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            if (fieldCount(text, line, end) == 3) {
                return true;
            }
            line = end + 1;
        }
        return false;
    }

    private static int fieldCount(byte[] text, int from, int to) {
        int count = 0;
        int i = skipSpaces(text, from, to);
        while (i < to) {
            count++;
            i = skipSpaces(text, tokenEnd(text, i, to), to);
        }
        return count;
    }

    /**
     * Sums v1 blkio lines {@code MAJ:MIN Op bytes} into {@code readWrite}: ops starting with r/R count as read,
     * w/W as write, the rest (Sync, Async, Discard, Total) are ignored, exactly as the docker CLI does.
     */
    static void parseBlkioV1(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        readWrite[0] = 0;
        readWrite[1] = 0;
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            if (fieldCount(text, line, end) == 3) { // else the trailing "Total N" line, or blank
                int device = skipSpaces(text, line, end);
                int op = skipSpaces(text, tokenEnd(text, device, end), end);
                int opTo = tokenEnd(text, op, end);
                int value = skipSpaces(text, opTo, end);
                int valueTo = tokenEnd(text, value, end);
                char first = Character.toLowerCase((char) text[op]);
                if (first == 'r' || first == 'w') {
                    try {
                        readWrite[first == 'r' ? 0 : 1] += number(text, value, valueTo);
                    } catch (NumberFormatException e) {
                        throw new IOException("Bad byte count in '" + text(text, line, end) + "' in " + source, e);
                    }
                }
            }
            line = end + 1;
        }
    }

    static long[] parseBlkioV1(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long[] readWrite = new long[2];
        parseBlkioV1(bytes, bytes.length, readWrite, source);
        return readWrite;
    }

    /**
     * docker's rule for a block I/O entry, shared by the cgroup v1 files and the Engine API: an op starting with
     * r/R is a read, w/W a write (v1 writes "Read", the daemon's v2 entries "read"); every other op is ignored.
     */
    static void addByOp(long[] readWrite, String op, long bytes) {
        if (op.isEmpty()) {
            return;
        }
        char first = Character.toLowerCase(op.charAt(0));
        if (first == 'r' || first == 'w') {
            readWrite[first == 'r' ? 0 : 1] += bytes;
        }
    }

    /** Sums v2 io.stat lines {@code MAJ:MIN rbytes=… wbytes=… rios=…} over all devices into {@code readWrite}. */
    static void parseIoStatV2(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        readWrite[0] = 0;
        readWrite[1] = 0;
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int field = skipSpaces(text, line, end);
            while (field < end) {
                int fieldTo = tokenEnd(text, field, end);
                int slot = startsWith(text, field, fieldTo, "rbytes=") ? 0
                        : startsWith(text, field, fieldTo, "wbytes=") ? 1 : -1;
                if (slot >= 0) {
                    try {
                        readWrite[slot] += number(text, field + "rbytes=".length(), fieldTo);
                    } catch (NumberFormatException e) {
                        throw new IOException("Bad value '" + text(text, field, fieldTo) + "' in line '"
                                + text(text, line, end) + "' of " + source, e);
                    }
                }
                field = skipSpaces(text, fieldTo, end);
            }
            line = end + 1;
        }
    }

    static long[] parseIoStatV2(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long[] readWrite = new long[2];
        parseIoStatV2(bytes, bytes.length, readWrite, source);
        return readWrite;
    }

    // ---- network ----------------------------------------------------------------------------------------------

    /**
     * Sums received and sent bytes of {@code /proc/<pid>/net/dev} over every interface except loopback into
     * {@code receivedSent}: docker's NET I/O covers the interfaces of the container's network, which never include
     * {@code lo}.
     */
    static void parseNetDev(byte[] text, int length, long[] receivedSent, Path source) throws IOException {
        receivedSent[0] = 0;
        receivedSent[1] = 0;
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int colon = -1;
            boolean header = false;
            for (int i = line; i < end; i++) {
                if (text[i] == '|') {
                    header = true;
                    break;
                }
                if (colon < 0 && text[i] == ':') {
                    colon = i;
                }
            }
            if (colon >= 0 && !header) { // else one of the two header lines
                int name = skipSpaces(text, line, colon);
                int nameTo = colon;
                while (nameTo > name && isSpace(text[nameTo - 1])) {
                    nameTo--;
                }
                boolean loopback = nameTo - name == 2 && text[name] == 'l' && text[name + 1] == 'o';
                if (!loopback) {
                    addInterface(text, line, colon + 1, end, receivedSent, source);
                }
            }
            line = end + 1;
        }
    }

    private static void addInterface(byte[] text, int line, int from, int end, long[] receivedSent, Path source)
            throws IOException {
        int field = skipSpaces(text, from, end);
        int index = 0;
        long received = 0;
        long sent = 0;
        try {
            while (field < end && index <= 8) {
                int fieldTo = tokenEnd(text, field, end);
                if (index == 0) {
                    received = number(text, field, fieldTo);
                } else if (index == 8) {
                    sent = number(text, field, fieldTo);
                }
                index++;
                field = skipSpaces(text, fieldTo, end);
            }
        } catch (NumberFormatException e) {
            throw new IOException("Bad byte count in '" + text(text, line, end) + "' of " + source, e);
        }
        if (index < 9) {
            throw new IOException("Unexpected line '" + text(text, line, end) + "' in " + source);
        }
        receivedSent[0] += received;
        receivedSent[1] += sent;
    }

    static long[] parseNetDev(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long[] receivedSent = new long[2];
        parseNetDev(bytes, bytes.length, receivedSent, source);
        return receivedSent;
    }
}
