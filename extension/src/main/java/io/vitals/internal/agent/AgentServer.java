package io.vitals.internal.agent;

import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.HostCgroupProbe;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's side: answers {@link AgentProtocol} requests from {@code in} on {@code out}, one at a time, with
 * one {@link HostCgroupProbe} per watched container, the very class the extension reads the host's files with.
 * Runs until {@code in} ends (the extension closed the stream, or died: the agent must not outlive it) or a
 * {@code QUIT}; closes every probe then.
 */
final class AgentServer {

    /** Opens the host probe of one container; tests point it at recorded cgroup trees. */
    @FunctionalInterface
    interface Opener {
        HostCgroupProbe open(String name, long hostPid) throws ProbeException;
    }

    /** One watched container: its probe and its last reading, which a fast read carries the slow figures from. */
    private static final class Watch {
        final HostCgroupProbe probe;
        RawReading last;

        Watch(HostCgroupProbe probe) {
            this.probe = probe;
        }
    }

    private final Opener opener;
    private final boolean resetPeaks;
    private final Map<Integer, Watch> watches = new HashMap<>();

    /**
     * @param resetPeaks whether a RESET may write the high-water mark: false unless the user allowed it, since a
     *     read-only bind mount of a cgroup v1 tree leaves its controllers' own mounts writable on engines that
     *     do not make binds recursively read-only (Docker before 25), and the agent must write nothing then
     */
    AgentServer(Opener opener, boolean resetPeaks) {
        this.opener = opener;
        this.resetPeaks = resetPeaks;
    }

    /** Serves until the stream ends or a QUIT; returns normally in both cases. */
    void serve(InputStream in, OutputStream out) throws IOException {
        DataInputStream requests = new DataInputStream(in);
        DataOutputStream answers = new DataOutputStream(out);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
        DataOutputStream answer = new DataOutputStream(buffer);
        try {
            while (true) {
                byte op;
                try {
                    op = requests.readByte();
                } catch (EOFException e) {
                    return;
                }
                int id = requests.readInt();
                buffer.reset();
                boolean quit = handle(op, id, requests, answer);
                // one write per answer: the engine forwards each write as one frame
                answers.write(buffer.toByteArray());
                answers.flush();
                if (quit) {
                    return;
                }
            }
        } finally {
            watches.values().forEach(watch -> watch.probe.close());
            watches.clear();
        }
    }

    private boolean handle(byte op, int id, DataInputStream in, DataOutputStream answer) throws IOException {
        try {
            switch (op) {
                case AgentProtocol.WATCH -> watch(id, in.readLong(), in.readUTF(), answer);
                case AgentProtocol.FULL -> {
                    Watch watch = watch(id);
                    watch.last = watch.probe.read();
                    answer.writeByte(AgentProtocol.OK);
                    AgentProtocol.writeFull(answer, watch.last);
                }
                case AgentProtocol.FAST -> {
                    Watch watch = watch(id);
                    watch.last = watch.last == null ? watch.probe.read() : watch.probe.readFast(watch.last);
                    answer.writeByte(AgentProtocol.OK);
                    AgentProtocol.writeFast(answer, watch.last);
                }
                case AgentProtocol.BATCH -> {
                    if (id < 0 || id > AgentProtocol.MAX_BATCH) {
                        throw new IOException("a batch of " + id + " requests: the stream is out of step");
                    }
                    // each member's answer in turn, with its own status: one unreadable container fails alone
                    for (int i = 0; i < id; i++) {
                        byte read = in.readByte();
                        if (read != AgentProtocol.FAST && read != AgentProtocol.FULL) {
                            throw new IOException("a batch asks for op " + read + ": the stream is out of step");
                        }
                        handle(read, in.readInt(), in, answer);
                    }
                }
                case AgentProtocol.RESET -> {
                    Watch watch = watch(id);
                    boolean reset = resetPeaks && watch.probe.resetHighWaterMark();
                    answer.writeByte(AgentProtocol.OK);
                    answer.writeBoolean(reset);
                    AgentProtocol.writeShape(answer, watch.probe.hostShape());
                }
                case AgentProtocol.GONE -> {
                    Optional<String> gone = watch(id).probe.goneNow();
                    answer.writeByte(AgentProtocol.OK);
                    AgentProtocol.writeOptionalText(answer, gone);
                }
                case AgentProtocol.CLOSE -> {
                    Watch watch = watches.remove(id);
                    if (watch != null) {
                        watch.probe.close();
                    }
                    answer.writeByte(AgentProtocol.OK);
                }
                case AgentProtocol.QUIT -> {
                    answer.writeByte(AgentProtocol.OK);
                    return true;
                }
                default -> throw new IOException("unknown request op " + op + ": the stream is out of step");
            }
        } catch (ContainerGoneException e) {
            answer.writeByte(AgentProtocol.GONE_STATUS);
            answer.writeUTF(e.getMessage());
        } catch (ProbeException | RuntimeException e) {
            answer.writeByte(AgentProtocol.ERROR);
            answer.writeUTF(String.valueOf(e.getMessage()));
        }
        return false;
    }

    private void watch(int id, long hostPid, String name, DataOutputStream answer) throws ProbeException,
            IOException {
        HostCgroupProbe probe = opener.open(name, hostPid);
        Watch previous = watches.put(id, new Watch(probe));
        if (previous != null) {
            previous.probe.close();
        }
        answer.writeByte(AgentProtocol.OK);
        answer.writeBoolean(probe.kind() == io.vitals.ProbeKind.HOST_CGROUP_V2);
        answer.writeUTF(probe.describe());
        AgentProtocol.writeShape(answer, probe.hostShape());
    }

    private Watch watch(int id) throws ProbeException {
        Watch watch = watches.get(id);
        if (watch == null) {
            throw new ProbeException("the agent watches no container under id " + id);
        }
        return watch;
    }
}
