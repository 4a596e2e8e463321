package io.vitals.internal.probe.cgroupfs;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * The cgroup file a write to which resets the kernel's memory high-water mark: cgroup v1's
 * {@code memory.max_usage_in_bytes}, cgroup v2's {@code memory.peak}. Opened for writing on the first reset and kept
 * open for the probe's life, as the files it reads are ({@link CgroupFile}): opening and closing it for every test's
 * reset cost more than the write.
 *
 * <p>Since Linux 6.12 a write to {@code memory.peak} resets the mark <em>for that open file only</em>, so the mark is
 * then read back through the same descriptor ({@link #readValue()}). Thread-safe: every call holds the lock.
 */
@API(status = INTERNAL, since = "0.1")
public final class MarkFile implements AutoCloseable {

    private final Path path;
    private final Set<OpenOption> options;
    private final byte[] reset;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(32);
    private final byte[] bytes = new byte[32];
    /** The descriptor of the last reset, while it succeeded; null before the first and after {@link #close()}. */
    private FileChannel channel;

    private MarkFile(Path path, Set<OpenOption> options, String reset) {
        this.path = path;
        this.options = options;
        this.reset = reset.getBytes(StandardCharsets.US_ASCII);
    }

    /** cgroup v1's {@code memory.max_usage_in_bytes}: any write resets it to the current usage. */
    public static MarkFile maxUsageInBytes(Path memoryController) {
        return new MarkFile(memoryController.resolve("memory.max_usage_in_bytes"),
                Set.of(StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), "0");
    }

    /** cgroup v2's {@code memory.peak}: since Linux 6.12 writable, and read back through the descriptor written. */
    public static MarkFile memoryPeak(Path cgroup) {
        return new MarkFile(cgroup.resolve("memory.peak"), Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE),
                "reset\n");
    }

    public Path path() {
        return path;
    }

    /**
     * Resets the mark, opening the file on the first call. A write on the descriptor kept open that fails (its
     * cgroup was removed: ENODEV) closes it and is tried once on a fresh one, which answers as any first reset does.
     * A fresh descriptor whose write fails is not kept.
     *
     * @throws java.nio.file.FileSystemException where the file is absent or may not be opened for writing (not
     *     root, a read-only mount, {@code memory.peak} before Linux 6.12, which is mode 0444): no resettable mark,
     *     not a failed read
     * @throws IOException where the write fails on a fresh descriptor
     */
    public synchronized void reset() throws IOException {
        if (channel != null) {
            try {
                channel.write(ByteBuffer.wrap(reset), 0);
                return;
            } catch (IOException e) {
                close();
            }
        }
        FileChannel fresh = FileChannel.open(path, options);
        try {
            fresh.write(ByteBuffer.wrap(reset), 0);
        } catch (IOException e) {
            closeQuietly(fresh);
            throw e;
        }
        channel = fresh;
    }

    /** Whether the last reset succeeded and the file is not closed since: the mark read through it is the one reset. */
    public synchronized boolean isOpen() {
        return channel != null;
    }

    /**
     * The mark read through the descriptor the resets wrote to, in bytes; {@link CgroupFiles#ABSENT} for an empty
     * file. Only for a file opened for reading, once {@link #isOpen()}.
     */
    public synchronized long readValue() throws IOException {
        if (channel == null) {
            throw new IllegalStateException(path + " is not open: read it after a reset");
        }
        buffer.clear();
        int length = Math.max(0, channel.read(buffer, 0));
        buffer.get(0, bytes, 0, length);
        return CgroupFiles.parseValue(bytes, length, path);
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            closeQuietly(channel);
            channel = null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a cgroup file cannot lose data; nothing to report
        }
    }
}
