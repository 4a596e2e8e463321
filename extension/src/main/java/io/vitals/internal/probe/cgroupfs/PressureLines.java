package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.number;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipSpaces;
import static io.vitals.internal.probe.cgroupfs.ByteScan.startsWith;
import static io.vitals.internal.probe.cgroupfs.ByteScan.text;
import static io.vitals.internal.probe.cgroupfs.ByteScan.tokenEnd;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Parses a pressure-stall (PSI) file, {@code cpu.pressure}, {@code memory.pressure} or {@code io.pressure}:
 * {@code some avg10=0.00 avg60=0.00 avg300=0.00 total=4199} and the same for {@code full}. Only the totals count:
 * the averages are the kernel's own smoothing over windows that do not match a test's.
 */
@API(status = INTERNAL, since = "0.1")
public final class PressureLines {

    private PressureLines() {
    }

    /** Parses the file into {@code totals} = {some, full} in microseconds (a missing line is zero). */
    public static void parsePressure(byte[] text, int length, long[] totals, Path source) throws IOException {
        PairLines.parse(text, length, totals, source, PressureLines::parseLine);
    }

    private static void parseLine(byte[] text, int line, int end, long[] totals, Path source) throws IOException {
        int from = skipSpaces(text, line, end);
        if (from == end) {
            return;
        }
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

    public static long[] parsePressure(String text, Path source) throws IOException {
        return PairLines.parse(text, source, PressureLines::parsePressure);
    }

    /** Returns {some, full} totals in microseconds, or empty when the file does not exist. */
    public static Optional<long[]> readPressure(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = CgroupFiles.read(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        long[] totals = new long[2];
        parsePressure(bytes, bytes.length, totals, file);
        return Optional.of(totals);
    }
}
