package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.fieldCount;
import static io.vitals.internal.probe.cgroupfs.ByteScan.lineEnd;
import static io.vitals.internal.probe.cgroupfs.ByteScan.number;
import static io.vitals.internal.probe.cgroupfs.ByteScan.skipSpaces;
import static io.vitals.internal.probe.cgroupfs.ByteScan.startsWith;
import static io.vitals.internal.probe.cgroupfs.ByteScan.text;
import static io.vitals.internal.probe.cgroupfs.ByteScan.tokenEnd;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;

import org.apiguardian.api.API;

/**
 * Parses the per-device block I/O files into {@code readWrite} = {read bytes, written bytes}, summed over every
 * device: cgroup v1's blkio files ({@code MAJ:MIN Op bytes}) and cgroup v2's {@code io.stat}
 * ({@code MAJ:MIN rbytes=… wbytes=…}). Both follow docker's rule of what counts as a read and a write
 * ({@link #addByOp}), so the figures match {@code docker stats}' BLOCK I/O.
 */
@API(status = INTERNAL, since = "0.1")
public final class BlockIoLines {

    private BlockIoLines() {
    }

    /** Whether a v1 blkio file has {@code MAJ:MIN Op bytes} lines (not just its {@code Total N} line). */
    public static boolean hasDeviceLines(byte[] text, int length) {
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

    /**
     * Sums v1 blkio lines {@code MAJ:MIN Op bytes} into {@code readWrite}: ops starting with r/R count as read,
     * w/W as write, the rest (Sync, Async, Discard, Total) are ignored, exactly as the docker CLI does.
     */
    public static void parseBlkioV1(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        PairLines.parse(text, length, readWrite, source, BlockIoLines::addBlkioV1Line);
    }

    private static void addBlkioV1Line(byte[] text, int line, int end, long[] readWrite, Path source)
            throws IOException {
        if (fieldCount(text, line, end) != 3) {
            return; // the trailing "Total N" line, or blank
        }
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

    public static long[] parseBlkioV1(String text, Path source) throws IOException {
        return PairLines.parse(text, source, BlockIoLines::parseBlkioV1);
    }

    /**
     * docker's rule for a block I/O entry, shared by the cgroup v1 files and the Engine API: an op starting with
     * r/R is a read, w/W a write (v1 writes "Read", the daemon's v2 entries "read"); every other op is ignored.
     */
    public static void addByOp(long[] readWrite, String op, long bytes) {
        if (op.isEmpty()) {
            return;
        }
        char first = Character.toLowerCase(op.charAt(0));
        if (first == 'r' || first == 'w') {
            readWrite[first == 'r' ? 0 : 1] += bytes;
        }
    }

    /** Sums v2 io.stat lines {@code MAJ:MIN rbytes=… wbytes=… rios=…} over all devices into {@code readWrite}. */
    public static void parseIoStatV2(byte[] text, int length, long[] readWrite, Path source) throws IOException {
        PairLines.parse(text, length, readWrite, source, BlockIoLines::addIoStatV2Line);
    }

    private static void addIoStatV2Line(byte[] text, int line, int end, long[] readWrite, Path source)
            throws IOException {
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
    }

    public static long[] parseIoStatV2(String text, Path source) throws IOException {
        return PairLines.parse(text, source, BlockIoLines::parseIoStatV2);
    }
}
