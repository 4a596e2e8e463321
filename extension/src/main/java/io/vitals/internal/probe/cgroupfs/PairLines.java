package io.vitals.internal.probe.cgroupfs;

import static io.vitals.internal.probe.cgroupfs.ByteScan.lineEnd;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The frame of the parsers that fill a pair of counters line by line: block I/O ({read, written}), net/dev
 * ({received, sent}) and pressure ({some, full}). Each of them only says what one line adds; this class zeroes the
 * pair, walks the lines, and gives the one-off {@code String} variant. The parsers are passed as static method
 * references, which capture nothing, so the sampler's path still allocates nothing.
 */
@API(status = INTERNAL, since = "0.1")
public final class PairLines {

    /** What one line, {@code text[from, end)}, adds to {@code pair}. */
    @FunctionalInterface
    @API(status = INTERNAL, since = "0.1")
    public interface LineParser {
        void line(byte[] text, int from, int end, long[] pair, Path source) throws IOException;
    }

    /** A whole file's parser: {@code text[0, length)} into {@code pair}, {@code source} named in its errors. */
    @FunctionalInterface
    @API(status = INTERNAL, since = "0.1")
    public interface FileParser {
        void parse(byte[] text, int length, long[] pair, Path source) throws IOException;
    }

    private PairLines() {
    }

    /** Zeroes {@code pair}, then hands every line of {@code text[0, length)} to {@code parser}. */
    public static void parse(byte[] text, int length, long[] pair, Path source, LineParser parser) throws IOException {
        pair[0] = 0;
        pair[1] = 0;
        int line = 0;
        while (line < length) {
            int end = lineEnd(text, line, length);
            parser.line(text, line, end, pair, source);
            line = end + 1;
        }
    }

    /** Reads {@code file} into {@code pair} with {@code parser}; a file the host lacks reads as zero. */
    public static void read(Optional<CgroupFile> file, FileParser parser, long[] pair) throws IOException {
        if (file.isPresent()) {
            read(file.get(), parser, pair);
        } else {
            pair[0] = 0;
            pair[1] = 0;
        }
    }

    public static void read(CgroupFile file, FileParser parser, long[] pair) throws IOException {
        file.read();
        parser.parse(file.bytes(), file.length(), pair, file.path());
    }

    /** Runs {@code parser} on {@code text} into a new pair, for one-off reads and tests. */
    public static long[] parse(String text, Path source, FileParser parser) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        long[] pair = new long[2];
        parser.parse(bytes, bytes.length, pair, source);
        return pair;
    }
}
