package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.lineEnd;
import static io.vitals.internal.probe.cgroupfs.ByteScan.number;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipSpaces;
import static io.vitals.internal.probe.cgroupfs.ByteScan.text;
import static io.vitals.internal.probe.cgroupfs.ByteScan.tokenEnd;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.apiguardian.api.API;

/**
 * Parses files of {@code key value} lines: memory.stat, cpu.stat, memory.events, oom_control, cpuacct.stat. The
 * sampler reads the few keys it wants into a reused array ({@link #parseKeyed}); one-off reads and tests take every
 * key as a map.
 */
@API(status = INTERNAL, since = "0.1")
public final class KeyedLines {

    private KeyedLines() {
    }

    /**
     * Reads the values of {@code keys} from {@code key value} lines into {@code values} ({@link CgroupFiles#ABSENT}
     * for keys the file lacks). Every line must have that shape; values of other keys are not parsed.
     */
    public static void parseKeyed(byte[] text, int length, CgroupFiles.Keys keys, long[] values, Path source)
            throws IOException {
        Arrays.fill(values, CgroupFiles.ABSENT);
        parse(text, length, source, keys, values, null);
    }

    /** Parses {@code key value} lines (memory.stat, cpu.stat, memory.events, oom_control); a missing file is empty. */
    public static Map<String, Long> readFlatKeyed(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = CgroupFiles.read(file);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        return parseFlatKeyed(bytes, bytes.length, file);
    }

    public static Map<String, Long> parseFlatKeyed(String text, Path source) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        return parseFlatKeyed(bytes, bytes.length, source);
    }

    /** Every key of the file, for one-off reads; the sampler uses {@link #parseKeyed} instead. */
    public static Map<String, Long> parseFlatKeyed(byte[] text, int length, Path source) throws IOException {
        Map<String, Long> values = new HashMap<>();
        parse(text, length, source, null, null, values);
        return values;
    }

    /**
     * The one loop of both readers: each pair goes into {@code every} when it is given (a one-off read of every
     * key), else into the slot of {@code values} that {@code keys} gives it, if any.
     */
    private static void parse(byte[] text, int length, Path source, CgroupFiles.Keys keys, long[] values,
            Map<String, Long> every) throws IOException {
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            int keyFrom = skipSpaces(text, line, end);
            if (keyFrom < end) {
                int keyTo = tokenEnd(text, keyFrom, end);
                int valueFrom = skipSpaces(text, keyTo, end);
                int valueTo = checkedValueEnd(text, line, end, valueFrom, source);
                if (every != null) {
                    every.put(text(text, keyFrom, keyTo),
                            keyedNumber(text, keyFrom, keyTo, valueFrom, valueTo, source));
                } else {
                    int slot = keys.indexOf(text, keyFrom, keyTo);
                    if (slot >= 0) { // other keys' values are not parsed
                        values[slot] = keyedNumber(text, keyFrom, keyTo, valueFrom, valueTo, source);
                    }
                }
            }
            line = end + 1;
        }
    }

    /** The end of the value starting at {@code valueFrom}, which must be the line's second and last token. */
    private static int checkedValueEnd(byte[] text, int line, int end, int valueFrom, Path source)
            throws IOException {
        int valueTo = tokenEnd(text, valueFrom, end);
        if (valueFrom == valueTo || skipSpaces(text, valueTo, end) != end) {
            throw new IOException("Expected 'key value' lines in " + source + " but found '" + text(text, line, end)
                    + "'");
        }
        return valueTo;
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
}
