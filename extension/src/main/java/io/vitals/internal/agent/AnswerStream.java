package io.vitals.internal.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The agent's answers as a stream whose reads give up after a deadline, so that an agent that hangs (stopped,
 * or its engine unreachable) fails a read instead of blocking the sampler thread forever. A pump thread reads the
 * raw stream, splits the engine's multiplexed attach frames when asked ({@code [stream, 0, 0, 0, size32]} then
 * the payload: stream 1 is stdout, 2 stderr) and queues stdout's bytes; stderr's last lines are kept for error
 * messages ("java: not found", a stack trace).
 */
final class AnswerStream extends ChunkStream {

    private static final int STDERR_KEPT = 2048;

    private final StringBuilder stderr = new StringBuilder();
    private final Duration firstTimeout;
    private final Duration timeout;
    private final Thread pump;
    private boolean answered;
    private volatile String endReason = "the stream ended";

    /** Starts pumping {@code raw}; {@code multiplexed} when it is an engine attach stream without a TTY. */
    AnswerStream(InputStream raw, boolean multiplexed, Duration timeout, String threadName) {
        this(raw, multiplexed, timeout, timeout, threadName);
    }

    /**
     * As above, with a wait of its own for the first answer, which comes only once the agent's JVM has started: a
     * few seconds on a quiet machine, 6-18 s under the cgroup v2 guests' software emulation.
     */
    AnswerStream(InputStream raw, boolean multiplexed, Duration firstTimeout, Duration timeout, String threadName) {
        this.firstTimeout = firstTimeout;
        this.timeout = timeout;
        this.pump = new Thread(() -> pump(raw, multiplexed), threadName);
        pump.setDaemon(true);
        pump.start();
    }

    private void pump(InputStream raw, boolean multiplexed) {
        try (raw) {
            byte[] header = new byte[8];
            while (true) {
                if (!multiplexed) {
                    byte[] buffer = new byte[4096];
                    int n = raw.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    chunks.add(java.util.Arrays.copyOf(buffer, n));
                    continue;
                }
                if (!readFully(raw, header)) {
                    return;
                }
                int size = ((header[4] & 0xff) << 24) | ((header[5] & 0xff) << 16) | ((header[6] & 0xff) << 8)
                        | (header[7] & 0xff);
                byte[] payload = new byte[size];
                if (!readFully(raw, payload)) {
                    return;
                }
                if (header[0] == 2) {
                    keepStderr(new String(payload, StandardCharsets.UTF_8));
                } else {
                    chunks.add(payload);
                }
            }
        } catch (IOException e) {
            endReason = "reading it failed: " + e.getMessage();
        } finally {
            chunks.add(END);
        }
    }

    private static boolean readFully(InputStream in, byte[] into) throws IOException {
        int read = 0;
        while (read < into.length) {
            int n = in.read(into, read, into.length - read);
            if (n < 0) {
                return false;
            }
            read += n;
        }
        return true;
    }

    private synchronized void keepStderr(String text) {
        stderr.append(text);
        if (stderr.length() > STDERR_KEPT) {
            stderr.delete(0, stderr.length() - STDERR_KEPT);
        }
    }

    /** The last lines the agent wrote to stderr, for messages. */
    synchronized String stderr() {
        return stderr.toString().strip();
    }

    /** Why the stream ended, once it has. */
    String endReason() {
        return endReason;
    }

    /** The next chunk, waiting at most the timeout (the first answer's own, longer, before any came). */
    @Override
    byte[] next() throws IOException {
        Duration wait = answered ? timeout : firstTimeout;
        byte[] next;
        try {
            next = chunks.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the agent");
        }
        if (next == null) {
            throw new AgentTimeoutException("no answer within " + wait.toMillis() + " ms");
        }
        answered = true;
        return next;
    }

    @Override
    public void close() {
        pump.interrupt();
    }

    /** The agent did not answer in time. */
    static final class AgentTimeoutException extends IOException {

        private static final long serialVersionUID = 1L;

        AgentTimeoutException(String message) {
            super(message);
        }
    }
}
