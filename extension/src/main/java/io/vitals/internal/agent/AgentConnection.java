package io.vitals.internal.agent;

import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
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
 * <p>Once a round trip fails (the stream ended: the agent died; or no answer within the timeout) the connection is
 * broken for good and every later call fails at once with the first reason, so nothing waits twice on a dead
 * agent.
 */
final class AgentConnection implements AutoCloseable {

    private final OutputStream requests;
    private final AnswerStream answers;
    private final DataInputStream in;
    private final String agentName;
    private final Runnable onClose;
    private final AtomicInteger nextId = new AtomicInteger(1);
    private final ByteArrayOutputStream request = new ByteArrayOutputStream(64);
    private final DataOutputStream out = new DataOutputStream(request);
    private volatile Optional<String> broken = Optional.empty();

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
            String message = in.readUTF();
            if (status == AgentProtocol.GONE_STATUS) {
                throw new ContainerGoneException(message);
            }
            throw new ProbeException("The Vitals agent could not read container '" + container + "': " + message);
        } catch (IOException e) {
            throw breakWith(e);
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
