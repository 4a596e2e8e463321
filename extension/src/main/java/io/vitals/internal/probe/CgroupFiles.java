package io.vitals.internal.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Parsers for the few shapes cgroup files come in: a single value, {@code key value} lines, pressure lines and
 * per-device I/O lines. Every method names the file in its error, since "NumberFormatException: For input string"
 * alone tells a user nothing.
 */
final class CgroupFiles {

    /** cgroup v1 writes "unlimited" as a page-aligned value near 2^63; anything this large means no limit. */
    static final long UNLIMITED_THRESHOLD = 1L << 62;

    private CgroupFiles() {
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII);
    }

    /** Reads a single number; {@code max} or an empty file reads as empty (no limit / not present). */
    static OptionalLong readOptionalLong(Path file) throws IOException {
        String text;
        try {
            text = read(file).trim();
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
        return parseOptionalLong(text, file);
    }

    static long readLong(Path file) throws IOException {
        String text = read(file).trim();
        OptionalLong value = parseOptionalLong(text, file);
        if (value.isEmpty()) {
            throw new IOException("Expected a number in " + file + " but found '" + text + "'");
        }
        return value.getAsLong();
    }

    static OptionalLong parseOptionalLong(String text, Path source) throws IOException {
        if (text.isEmpty() || text.equals("max")) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new IOException("Expected a number or 'max' in " + source + " but found '" + text + "'", e);
        }
    }

    /** A limit, where values at or above {@link #UNLIMITED_THRESHOLD} (v1) or {@code max} (v2) mean none. */
    static OptionalLong readLimit(Path file) throws IOException {
        OptionalLong value = readOptionalLong(file);
        if (value.isPresent() && value.getAsLong() >= UNLIMITED_THRESHOLD) {
            return OptionalLong.empty();
        }
        return value;
    }

    /** Parses {@code key value} lines (memory.stat, cpu.stat, memory.events, oom_control); a missing file is empty. */
    static Map<String, Long> readFlatKeyed(Path file) throws IOException {
        String text;
        try {
            text = read(file);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        return parseFlatKeyed(text, file);
    }

    static Map<String, Long> parseFlatKeyed(String text, Path source) throws IOException {
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.trim().split("\\s+");
            if (parts.length != 2) {
                throw new IOException("Expected 'key value' lines in " + source + " but found '" + line + "'");
            }
            try {
                values.put(parts[0], Long.parseLong(parts[1]));
            } catch (NumberFormatException e) {
                throw new IOException("Expected a number after '" + parts[0] + "' in " + source + " but found '"
                        + parts[1] + "'", e);
            }
        }
        return values;
    }

    /**
     * Parses a PSI file: {@code some avg10=0.00 avg60=0.00 avg300=0.00 total=4199} and the same for {@code full}.
     * Returns {some, full} totals in microseconds, or empty when the file does not exist.
     */
    static Optional<long[]> readPressure(Path file) throws IOException {
        String text;
        try {
            text = read(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(parsePressure(text, file));
    }

    static long[] parsePressure(String text, Path source) throws IOException {
        long[] totals = new long[2];
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.trim().split("\\s+");
            int slot = switch (fields[0]) {
                case "some" -> 0;
                case "full" -> 1;
                default -> throw new IOException("Unexpected line '" + line + "' in " + source);
            };
            for (String field : fields) {
                if (field.startsWith("total=")) {
                    try {
                        totals[slot] = Long.parseLong(field.substring("total=".length()));
                    } catch (NumberFormatException e) {
                        throw new IOException("Bad total in '" + line + "' in " + source, e);
                    }
                }
            }
        }
        return totals;
    }

    /**
     * Sums v1 blkio lines {@code MAJ:MIN Op bytes}: ops starting with r/R count as read, w/W as write, the rest
     * (Sync, Async, Discard, Total) are ignored, exactly as the docker CLI does.
     */
    static long[] parseBlkioV1(String text, Path source) throws IOException {
        long[] readWrite = new long[2];
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length != 3) {
                continue; // the trailing "Total N" line, or blank
            }
            addByOp(readWrite, fields[1], fields[2], line, source);
        }
        return readWrite;
    }

    private static void addByOp(long[] readWrite, String op, String value, String line, Path source)
            throws IOException {
        try {
            addByOp(readWrite, op, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IOException("Bad byte count in '" + line + "' in " + source, e);
        }
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

    /** Sums v2 io.stat lines {@code MAJ:MIN rbytes=… wbytes=… rios=…} over all devices. */
    static long[] parseIoStatV2(String text, Path source) throws IOException {
        long[] readWrite = new long[2];
        for (String line : text.split("\n")) {
            for (String field : line.trim().split("\\s+")) {
                if (field.startsWith("rbytes=")) {
                    readWrite[0] += parseField(field, line, source);
                } else if (field.startsWith("wbytes=")) {
                    readWrite[1] += parseField(field, line, source);
                }
            }
        }
        return readWrite;
    }

    private static long parseField(String field, String line, Path source) throws IOException {
        try {
            return Long.parseLong(field.substring(field.indexOf('=') + 1));
        } catch (NumberFormatException e) {
            throw new IOException("Bad value '" + field + "' in line '" + line + "' of " + source, e);
        }
    }

    /**
     * Sums received and sent bytes of {@code /proc/<pid>/net/dev} over every interface except loopback: docker's
     * NET I/O covers the interfaces of the container's network, which never include {@code lo}.
     */
    static long[] parseNetDev(String text, Path source) throws IOException {
        long[] receivedSent = new long[2];
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.contains("|")) {
                continue; // the two header lines
            }
            String iface = line.substring(0, colon).trim();
            if (iface.equals("lo")) {
                continue;
            }
            String[] fields = line.substring(colon + 1).trim().split("\\s+");
            if (fields.length < 9) {
                throw new IOException("Unexpected line '" + line + "' in " + source);
            }
            try {
                receivedSent[0] += Long.parseLong(fields[0]);
                receivedSent[1] += Long.parseLong(fields[8]);
            } catch (NumberFormatException e) {
                throw new IOException("Bad byte count in '" + line + "' of " + source, e);
            }
        }
        return receivedSent;
    }
}
