package io.vitals.internal.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A stream read from a queue of byte chunks that another thread fills, ended by {@link #END}: the agent's answers
 * (pumped from the engine's attach stream) and its requests (written by whichever thread measures). Each subclass says
 * how long a read may wait for the next chunk.
 */
abstract class ChunkStream extends InputStream {

    /** Queued last: the stream has ended. */
    static final byte[] END = new byte[0];

    final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    /** Takes the next chunk from {@link #chunks}, {@link #END} included, waiting as long as the subclass allows. */
    abstract byte[] next() throws IOException;

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return current[position++] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, into.length);
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, into, offset, n);
        position += n;
        return n;
    }

    /** The bytes of the chunk at hand not yet read: what a read returns without waiting. */
    @Override
    public int available() {
        return current.length - position;
    }

    /** Makes bytes available; false at the end of the stream. */
    private boolean fill() throws IOException {
        while (position >= current.length) {
            if (ended) {
                return false;
            }
            byte[] next = next();
            if (next == END) {
                ended = true;
                return false;
            }
            current = next;
            position = 0;
        }
        return true;
    }
}
