package io.vitals.internal.agent;

import io.vitals.ProbeKind;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadBatch;
import io.vitals.internal.probe.ResourceProbe;

import java.time.Clock;
import java.util.Optional;

/**
 * One container read through the agent: each call is one round trip in which the agent's
 * {@code HostCgroupProbe} does what the host probe would do here. Readings are stamped with this JVM's clocks at
 * the midpoint of the round trip, since the agent's clocks are another JVM's.
 */
final class AgentProbe implements ResourceProbe, ReadBatch.Member {

    private final AgentConnection connection;
    private final int id;
    private final String containerName;
    private final boolean v2;
    private final String description;
    private final Clock wallClock;
    private volatile HostShape shape;

    private AgentProbe(AgentConnection connection, int id, String containerName, boolean v2, String description,
            HostShape shape, Clock wallClock) {
        this.connection = connection;
        this.id = id;
        this.containerName = containerName;
        this.v2 = v2;
        this.description = description;
        this.shape = shape;
        this.wallClock = wallClock;
    }

    /** Asks the agent to watch {@code target}, by its host PID; fails as the host probe would fail there. */
    static AgentProbe open(AgentConnection connection, ContainerTarget target, Clock wallClock)
            throws ProbeException {
        int id = connection.newWatchId();
        Object[] answer = connection.call(AgentProtocol.WATCH, id, out -> {
            out.writeLong(target.hostPid());
            out.writeUTF(target.name());
        }, in -> new Object[] {in.readBoolean(), in.readUTF(), AgentProtocol.readShape(in)}, target.name());
        AgentProbe probe = new AgentProbe(connection, id, target.name(), (Boolean) answer[0],
                answer[1] + " via the Vitals agent container (" + connection.agentName() + ")", (HostShape) answer[2],
                wallClock);
        try {
            probe.read(); // prove the files are readable before we rely on them, as the host probe's factory does
        } catch (ProbeException e) {
            probe.close();
            throw e;
        }
        return probe;
    }

    @Override
    public ProbeKind kind() {
        return v2 ? ProbeKind.AGENT_CGROUP_V2 : ProbeKind.AGENT_CGROUP_V1;
    }

    @Override
    public RawReading read() throws ProbeException {
        long sent = System.nanoTime();
        return connection.call(AgentProtocol.FULL, id, out -> { }, in -> {
            long midpoint = sent + (System.nanoTime() - sent) / 2;
            return AgentProtocol.readFull(in, midpoint, wallClock.instant());
        }, containerName);
    }

    /** The full answer its connection prefetched on this tick (see {@link ReadBatch}), or a round trip of its own. */
    @Override
    public RawReading readScheduled() throws ProbeException {
        Optional<AgentConnection.Prefetched> prefetched = connection.takePrefetched(id);
        if (prefetched.isPresent() && (prefetched.get().isFull() || prefetched.get().status() != AgentProtocol.OK)) {
            return prefetched.get().applyTo(null, containerName);
        }
        return read();
    }

    /** The fast answer its connection prefetched on this tick (see {@link ReadBatch}), or a round trip of its own. */
    @Override
    public RawReading readFast(RawReading last) throws ProbeException {
        Optional<AgentConnection.Prefetched> prefetched = connection.takePrefetched(id);
        if (prefetched.isPresent() && !prefetched.get().isFull()) {
            return prefetched.get().applyTo(last, containerName);
        }
        long sent = System.nanoTime();
        return connection.call(AgentProtocol.FAST, id, out -> { }, in -> {
            long midpoint = sent + (System.nanoTime() - sent) / 2;
            return AgentProtocol.readFast(in, last, midpoint, wallClock.instant());
        }, containerName);
    }

    @Override
    public Optional<String> goneNow() throws ProbeException {
        return connection.call(AgentProtocol.GONE, id, out -> { }, AgentProtocol::readOptionalText, containerName);
    }

    @Override
    public boolean resetHighWaterMark() throws ProbeException {
        return connection.call(AgentProtocol.RESET, id, out -> { }, in -> {
            boolean reset = in.readBoolean();
            shape = AgentProtocol.readShape(in);
            return reset;
        }, containerName);
    }

    @Override
    public Optional<ReadBatch.Member> batchMember() {
        return Optional.of(this);
    }

    /** Its connection: every probe of one agent is read in the same batch. */
    @Override
    public ReadBatch batch() {
        return connection;
    }

    int id() {
        return id;
    }

    Clock wallClock() {
        return wallClock;
    }

    @Override
    public HostShape hostShape() {
        return shape;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (connection.broken().isPresent()) {
            return;
        }
        try {
            connection.call(AgentProtocol.CLOSE, id, out -> { }, in -> null, containerName);
        } catch (ProbeException e) {
            // the agent is gone: its probes went with it
        }
    }
}
