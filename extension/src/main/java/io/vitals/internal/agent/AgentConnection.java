package io.vitals.internal.agent;

import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadBatch;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The extension's end of one agent's stream: requests written to the agent container's stdin, answers read from
 * its stdout, one round trip at a time (the sampler thread and the test thread take turns). Every probe opened
 * through the agent shares it, each under its own watch id.
 *
 * <p>Why stdin/stdout (an engine attach stream) rather than a mapped port: the attach stream goes through the
 * Engine API, which Vitals reaches wherever Testcontainers does (a local socket, a remote {@code DOCKER_HOST}, the
 * Docker Desktop VM, a Docker-in-Docker daemon), so the agent is reachable exactly where the Engine API probe is;
 * a mapped port needs the container's network and the port reachable from the tests, which engines run with
 * {@code --network none} or behind a firewall do not give. The cost is one engine hop per round trip.
 *
 * <p>It is also the {@link ReadBatch} of its probes: on a sampler tick the reads of every container it reads cross
 * in one round trip ({@link AgentProtocol#BATCH}), and each probe's {@code readFast} or {@code readScheduled}
 * takes its answer from there. Any other request for a watch drops the answer prefetched for it, so a reading is
 * never older than the last one the watch was given.
 *
 * <p>Once a round trip fails (the stream ended: the agent died; or no answer within the timeout) the connection is
 * broken for good and every later call fails at once with the first reason, so nothing waits twice on a dead
 * agent.
 */
final class AgentConnection implements AutoCloseable, ReadBatch {

    private final OutputStream requests;
    private final AnswerStream answers;
    private final DataInputStream in;
    private final String agentName;
    private final Runnable onClose;
    private final AtomicInteger nextId = new AtomicInteger(1);
    private final ByteArrayOutputStream request = new ByteArrayOutputStream(64);
    private final DataOutputStream out = new DataOutputStream(request);
    private volatile Optional<String> broken = Optional.empty();
    /** The answers of the last batch not yet taken, by watch id; guarded by this. */
    private final Map<Integer, Prefetched> prefetched = new HashMap<>();
    /** Round trips made, and how many of them were batches; guarded by this. */
    private long roundTrips;
    private long batches;

    /**
     * @param agentName how messages name the agent ("the Vitals agent container 3f2c9e0d8b7a")
     * @param onClose closes what carries the streams (the attach response), after the streams
     */
    AgentConnection(OutputStream requests, AnswerStream answers, String agentName, Runnable onClose) {
        this.requests = requests;
        this.answers = answers;
        this.in = new DataInputStream(answers);
        this.agentName = agentName;
        this.onClose = onClose;
    }

    int newWatchId() {
        return nextId.getAndIncrement();
    }

    String agentName() {
        return agentName;
    }

    /** Why the agent no longer answers; empty while it does. */
    Optional<String> broken() {
        return broken;
    }

    /** What one round trip sends after its op and id. */
    @FunctionalInterface
    interface Arguments {
        void write(DataOutputStream out) throws IOException;
    }

    /** What one round trip reads from an OK answer. */
    @FunctionalInterface
    interface Result<T> {
        T read(DataInputStream in) throws IOException;
    }

    /**
     * One round trip: the request, then the answer read by {@code result}. A container-gone answer throws
     * {@link ContainerGoneException}, an error answer {@link ProbeException}; a dead or silent agent throws
     * {@link AgentGoneException} and breaks the connection.
     */
    synchronized <T> T call(byte op, int id, Arguments arguments, Result<T> result, String container)
            throws ProbeException {
        if (broken.isPresent()) {
            throw new AgentGoneException(broken.get());
        }
        prefetched.remove(id);
        roundTrips++;
        try {
            request.reset();
            out.writeByte(op);
            out.writeInt(id);
            arguments.write(out);
            requests.write(request.toByteArray());
            requests.flush();
            byte status = in.readByte();
            if (status == AgentProtocol.OK) {
                return result.read(in);
            }
            throw failure(status, in.readUTF(), container);
        } catch (IOException e) {
            throw breakWith(e);
        }
    }

    private static ProbeException failure(byte status, String message, String container) {
        return status == AgentProtocol.GONE_STATUS ? new ContainerGoneException(message)
                : new ProbeException("The Vitals agent could not read container '" + container + "': " + message);
    }

    /**
     * One round trip for the tick's reads of every member (all {@link AgentProbe}s of this connection): their
     * answers wait, stamped with the round trip's midpoint, for each probe's {@link #takePrefetched}. Answers
     * of an earlier batch not taken by now are dropped. A dead agent breaks the connection here, and each
     * probe's read then fails with the reason.
     */
    @Override
    public synchronized void prefetch(List<ReadBatch.Member> fast, List<ReadBatch.Member> full) {
        prefetched.clear();
        int count = fast.size() + full.size();
        if (broken.isPresent() || count == 0) {
            return;
        }
        AgentProbe[] probes = new AgentProbe[count];
        roundTrips++;
        batches++;
        try {
            request.reset();
            out.writeByte(AgentProtocol.BATCH);
            out.writeInt(count);
            for (int i = 0; i < count; i++) {
                boolean isFull = i >= fast.size();
                probes[i] = (AgentProbe) (isFull ? full.get(i - fast.size()) : fast.get(i));
                out.writeByte(isFull ? AgentProtocol.FULL : AgentProtocol.FAST);
                out.writeInt(probes[i].id());
            }
            long sent = System.nanoTime();
            requests.write(request.toByteArray());
            requests.flush();
            byte status = in.readByte();
            // the agent writes the whole answer at once: it has arrived when its first byte has
            long midpoint = sent + (System.nanoTime() - sent) / 2;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    status = in.readByte();
                }
                Instant wallTime = probes[i].wallClock().instant().minusNanos(Math.max(0,
                        System.nanoTime() - midpoint));
                Prefetched answer;
                if (status != AgentProtocol.OK) {
                    answer = Prefetched.failed(status, in.readUTF());
                } else if (i >= fast.size()) {
                    answer = Prefetched.full(AgentProtocol.readFull(in, midpoint, wallTime));
                } else {
                    answer = Prefetched.fast(AgentProtocol.readFastCounters(in), midpoint, wallTime);
                }
                prefetched.put(probes[i].id(), answer);
            }
        } catch (IOException e) {
            prefetched.clear();
            breakWith(e);
        }
    }

    /** Round trips so far, batches included: what the agent was woken for. */
    synchronized long roundTrips() {
        return roundTrips;
    }

    /** Round trips so far that were a tick's batch. */
    synchronized long batches() {
        return batches;
    }

    /** The answer the last batch fetched for watch {@code id}, if no other request of it came since; taken once. */
    synchronized Optional<Prefetched> takePrefetched(int id) {
        return Optional.ofNullable(prefetched.remove(id));
    }

    /**
     * One member's answer of a batch: a full reading, fast counters, or why the agent could not read them (a
     * status other than OK, with its message).
     */
    record Prefetched(byte status, String message, RawReading full, AgentProtocol.FastCounters counters,
            long monotonicNanos, Instant wallTime) {

        static Prefetched failed(byte status, String message) {
            return new Prefetched(status, message, null, null, 0, null);
        }

        static Prefetched full(RawReading reading) {
            return new Prefetched(AgentProtocol.OK, null, reading, null, 0, null);
        }

        static Prefetched fast(AgentProtocol.FastCounters counters, long monotonicNanos, Instant wallTime) {
            return new Prefetched(AgentProtocol.OK, null, null, counters, monotonicNanos, wallTime);
        }

        /**
         * The reading the answer makes of {@code last} (a fast answer refreshes it, a full one replaces it), or the
         * failure it carried, as a round trip throws it.
         */
        RawReading applyTo(RawReading last, String container) throws ProbeException {
            if (status != AgentProtocol.OK) {
                throw failure(status, message, container);
            }
            return full != null ? full : counters.applyTo(last, monotonicNanos, wallTime);
        }

        boolean isFull() {
            return status == AgentProtocol.OK && full != null;
        }
    }

    private AgentGoneException breakWith(IOException e) {
        String why = e instanceof EOFException ? "its stream ended (" + answers.endReason() + ")" : e.getMessage();
        String stderr = answers.stderr();
        String reason = agentName + " stopped answering: " + why + (stderr.isEmpty() ? "" : "; its last words: "
                + stderr.lines().reduce((first, second) -> second).orElse(""))
                + ". The figures of every container it read are missing from then on (counted as read errors).";
        broken = Optional.of(reason);
        return new AgentGoneException(reason);
    }

    /** Asks the agent to exit, then closes the streams; the agent also exits when its stdin ends. */
    @Override
    public void close() {
        if (broken.isEmpty()) {
            try {
                call(AgentProtocol.QUIT, 0, out -> { }, input -> null, "");
            } catch (ProbeException e) {
                // the agent is gone already: nothing to ask
            }
            broken = Optional.of(agentName + " was closed");
        }
        try {
            requests.close();
        } catch (IOException e) {
            // closing a dead stream loses nothing
        }
        answers.close();
        onClose.run();
    }

    /** The agent died or hung: a read error of every container it read, not their death. */
    static final class AgentGoneException extends ProbeException {

        private static final long serialVersionUID = 1L;

        AgentGoneException(String message) {
            super(message);
        }
    }
}
