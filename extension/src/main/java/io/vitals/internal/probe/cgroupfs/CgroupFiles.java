package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.isSpace;
import static io.vitals.internal.probe.cgroupfs.ByteScan.number;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipBlank;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipSpaces;
import static io.vitals.internal.probe.cgroupfs.ByteScan.text;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * What the readers of cgroup files share: the {@link #ABSENT} mark and {@link Keys} for the values they read, and
 * the parser of the simplest shape, a file holding a single value. Every parser names the file in its error, since
 * "NumberFormatException: For input string" alone tells a user nothing.
 *
 * <p>The other shapes have their own parsers: {@link KeyedLines} ({@code key value} lines), {@link PressureLines},
 * {@link BlockIoLines} and {@link NetDevLines} (the last three line by line within {@link PairLines}), all scanning
 * bytes with {@link ByteScan}. They work on the bytes of a {@link CgroupFile} and allocate nothing unless they fail:
 * the sampler runs them for every container every few milliseconds, and {@code String.split} with its regular
 * expression cost more than the kernel's own read. The {@code String} and {@code Path} variants are for one-off
 * reads and tests; they run the same byte parsers.
 */
@API(status = INTERNAL, since = "0.1")
public final class CgroupFiles {

    /** cgroup v1 writes "unlimited" as a page-aligned value near 2^63; anything this large means no limit. */
    public static final long UNLIMITED_THRESHOLD = 1L << 62;

    /** "No value": {@code max}, an empty file, or a key the file did not have. No counter ever reaches it. */
    public static final long ABSENT = Long.MIN_VALUE;

    private CgroupFiles() {
    }

    /** The keys a reader wants from a {@code key value} file; slot {@code i} of the values is key {@code i}. */
    @API(status = INTERNAL, since = "0.1")
    public static final class Keys {

        private final byte[][] names;

        public Keys(String... names) {
            this.names = new byte[names.length][];
            for (int i = 0; i < names.length; i++) {
                this.names[i] = names[i].getBytes(StandardCharsets.US_ASCII);
            }
        }

        public int size() {
            return names.length;
        }

        public long[] newValues() {
            long[] values = new long[names.length];
            Arrays.fill(values, ABSENT);
            return values;
        }

        public int indexOf(byte[] text, int from, int to) {
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
    public static long orElse(long value, long otherwise) {
        return value == ABSENT ? otherwise : value;
    }

    public static OptionalLong optional(long value) {
        return value == ABSENT ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /** A limit: values at or above {@link #UNLIMITED_THRESHOLD} (v1) or {@code max} (v2) mean none. */
    public static OptionalLong limit(long value) {
        return value == ABSENT || value >= UNLIMITED_THRESHOLD ? OptionalLong.empty() : OptionalLong.of(value);
    }

    // ---- single values ----------------------------------------------------------------------------------------

    /** A single number; {@code max} or an empty file is {@link #ABSENT} (no limit / not present). */
    public static long parseValue(byte[] text, int length, Path source) throws IOException {
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

    public static OptionalLong parseOptionalLong(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return optional(parseValue(bytes, bytes.length, source));
    }

    public static byte[] read(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    /** Reads a single number; {@code max} or an empty file reads as empty (no limit / not present). */
    public static OptionalLong readOptionalLong(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = read(file);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
        return optional(parseValue(bytes, bytes.length, file));
    }

    public static long readLong(Path file) throws IOException {
        byte[] bytes = read(file);
        long value = parseValue(bytes, bytes.length, file);
        if (value == ABSENT) {
            throw new IOException("Expected a number in " + file + " but found '" + text(bytes, 0, bytes.length).trim()
                    + "'");
        }
        return value;
    }

    /** A limit, where values at or above {@link #UNLIMITED_THRESHOLD} (v1) or {@code max} (v2) mean none. */
    public static OptionalLong readLimit(Path file) throws IOException {
        OptionalLong value = readOptionalLong(file);
        return value.isPresent() ? limit(value.getAsLong()) : value;
    }

    // ---- the per-device block I/O lines, here for the stats readers that call them by these names -------------

    /** See {@link BlockIoLines#hasDeviceLines}. */
    public static boolean hasDeviceLines(byte[] text, int length) {
        return BlockIoLines.hasDeviceLines(text, length);
    }

    /** See {@link BlockIoLines#parseBlkioV1(byte[], int, long[], Path)}. */
    public static void parseBlkioV1(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        BlockIoLines.parseBlkioV1(text, length, readWrite, source);
    }

    /** See {@link BlockIoLines#parseIoStatV2(byte[], int, long[], Path)}. */
    public static void parseIoStatV2(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        BlockIoLines.parseIoStatV2(text, length, readWrite, source);
    }

    /** See {@link BlockIoLines#addByOp}. */
    public static void addByOp(long[] readWrite, String op, long bytes) {
        BlockIoLines.addByOp(readWrite, op, bytes);
    }
}
