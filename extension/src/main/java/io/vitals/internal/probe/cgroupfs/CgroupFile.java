package io.vitals.internal.probe.cgroupfs;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One cgroup (or procfs) file kept open for the life of a probe and read again and again from offset 0.
 *
 * <p>Opening, reading and closing the ~17 files of a container costs the kernel 175-200 µs per sample; a positional
 * read on a descriptor kept open costs 1-2 µs per file, because these files are generated on every read and a
 * {@code pread} at offset 0 regenerates them. The bytes land in a direct buffer (no copy through a temporary one)
 * and are copied once into a reused array, which the byte parsers ({@link CgroupFiles}, {@link KeyedLines} and the
 * like) scan without allocating.
 *
 * <p>When the cgroup is removed, reads on its open descriptors fail with ENODEV; the probe turns that into
 * {@code io.vitals.internal.probe.ContainerGoneException}. Not thread-safe: its reader synchronises.
 */
@API(status = INTERNAL, since = "0.1")
public final class CgroupFile implements AutoCloseable {

    /**
     * The kernel's seq_file hands out at most its buffer (one page, or more for a single long record) per read, so
     * a read that returns a page or more may have more behind it; a shorter one that did not fill our buffer is
     * the whole file, and we save the read that would return 0.
     */
    private static final int PAGE = 4096;

    private final Path path;
    private final FileChannel channel;
    private ByteBuffer buffer;
    private byte[] bytes;
    private int length;

    private CgroupFile(Path path, FileChannel channel, int capacity) {
        this.path = path;
        this.channel = channel;
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.bytes = new byte[capacity];
    }

    /** Opens a file that must exist. */
    public static CgroupFile open(Path path) throws IOException {
        return open(path, 256);
    }

    public static CgroupFile open(Path path, int initialCapacity) throws IOException {
        return new CgroupFile(path, FileChannel.open(path, StandardOpenOption.READ), initialCapacity);
    }

    /** Opens a file the host may lack (pressure files, swap accounting, an unused blkio file). */
    public static Optional<CgroupFile> openIfPresent(Path path) throws IOException {
        try {
            return Optional.of(open(path));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    public Path path() {
        return path;
    }

    /** Reads the whole file from offset 0; afterwards {@link #bytes()} holds {@link #length()} bytes of it. */
    public int read() throws IOException {
        int total = 0;
        buffer.clear();
        while (true) {
            int n = channel.read(buffer, total);
            if (n <= 0) {
                break;
            }
            total += n;
            if (!buffer.hasRemaining()) {
                grow(total);
                continue;
            }
            if (n < PAGE) {
                break;
            }
        }
        if (bytes.length < total) {
            bytes = new byte[buffer.capacity()];
        }
        buffer.get(0, bytes, 0, total);
        length = total;
        return total;
    }

    private void grow(int kept) {
        ByteBuffer larger = ByteBuffer.allocateDirect(buffer.capacity() * 2);
        buffer.flip();
        larger.put(buffer);
        buffer = larger;
        buffer.position(kept);
    }

    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }

    /** Reads a single number: {@link CgroupFiles#ABSENT} for {@code max} or an empty file. */
    public long readValue() throws IOException {
        read();
        return CgroupFiles.parseValue(bytes, length, path);
    }

    /** Reads a number that must be there. */
    public long readRequired() throws IOException {
        long value = readValue();
        if (value == CgroupFiles.ABSENT) {
            throw new IOException("Expected a number in " + path + " but found '"
                    + new String(bytes, 0, length, java.nio.charset.StandardCharsets.US_ASCII).trim() + "'");
        }
        return value;
    }

    /** Reads {@code key value} lines into {@code values}, one slot per key of {@code keys}. */
    public void readKeyed(CgroupFiles.Keys keys, long[] values) throws IOException {
        read();
        KeyedLines.parseKeyed(bytes, length, keys, values, path);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a generated file cannot lose data; nothing to report
        }
    }
}
