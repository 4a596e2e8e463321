package io.vitals.internal.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The requests' way to the agent container's stdin: the extension's threads write whole requests into {@link #sink},
 * and the engine client's thread that feeds the attach connection reads them from {@link #source}.
 *
 * <p>Not {@code java.io.PipedInputStream}: that pipe remembers the last thread that wrote into it, and a reader that
 * waits about two seconds while that thread is gone gives up with "Pipe broken"; the engine client's feeding thread
 * then ends, and every later request fails with "Read end dead". Requests come from whichever thread measures (a
 * test thread, a sampler thread of a class that has ended), and the next one can come seconds later (a class starting
 * its container), so the agent of a JVM went dead between two classes (seen in the matrix's agent row on
 * 2026-12-06). Here no thread's lifetime matters: a write queues a copy of its bytes, a read waits for the next, and
 * only {@link OutputStream#close} ends the stream.
 */
final class RequestPipe {

    private final Source source = new Source();
    private final OutputStream sink = new Sink();

    /** Where requests are written: never blocks, since a request is a few dozen bytes and the agent reads them all. */
    OutputStream sink() {
        return sink;
    }

    /** What the engine client copies to the container's stdin: blocks until a request or the end. */
    InputStream source() {
        return source;
    }

    private final class Sink extends OutputStream {

        private volatile boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, bytes.length);
            if (closed) {
                throw new IOException("The agent's request stream is closed");
            }
            if (length > 0) {
                source.chunks.add(Arrays.copyOfRange(bytes, offset, offset + length));
            }
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                source.chunks.add(ChunkStream.END);
            }
        }
    }

    private final class Source extends ChunkStream {

        @Override
        byte[] next() throws IOException {
            try {
                return chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while waiting for the next request to the agent");
            }
        }
    }
}
