package io.vitals.internal.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The agent's answers as a stream whose reads give up after a deadline, so that an agent that hangs (stopped,
 * or its engine unreachable) fails a read instead of blocking the sampler thread forever. A pump thread reads the
 * raw stream, splits the engine's multiplexed attach frames when asked ({@code [stream, 0, 0, 0, size32]} then
 * the payload: stream 1 is stdout, 2 stderr) and queues stdout's bytes; stderr's last lines are kept for error
 * messages ("java: not found", a stack trace).
 */
final class AnswerStream extends InputStream {

    private static final byte[] END = new byte[0];
    private static final int STDERR_KEPT = 2048;

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();
    private final Duration firstTimeout;
    private final Duration timeout;
    private final Thread pump;
    private boolean answered;
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;
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

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return current[position++] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
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

    /** Makes bytes available, waiting at most the timeout; false at the end of the stream. */
    private boolean fill() throws IOException {
        while (position >= current.length) {
            if (ended) {
                return false;
            }
            byte[] next;
            Duration wait = answered ? timeout : firstTimeout;
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
            if (next == END) {
                ended = true;
                return false;
            }
            current = next;
            position = 0;
        }
        return true;
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
