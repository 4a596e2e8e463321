package io.vitals.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.CgroupAgent;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.Fixtures;
import io.vitals.internal.probe.HostCgroupProbe;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ResourceProbe;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's server and the extension's probe joined by in-process pipes, the server reading the recorded
 * cgroup v1 tree: what the agent answers is what the host probe reads there, and a dead or silent agent fails
 * reads at once (or after the timeout), never hangs.
 */
class AgentServerTests {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T14:00:00Z"), ZoneOffset.UTC);
    private static final ContainerTarget V1 = new ContainerTarget(Fixtures.V1_ID, "db", "postgres", Fixtures.V1_PID,
            OptionalLong.empty());

    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Writes of requests to the agent: one per round trip. */
    private final AtomicInteger roundTrips = new AtomicInteger();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    private static HostCgroupProbe hostProbe(String name, long pid) throws ProbeException {
        Path root = Fixtures.v1Root();
        return HostCgroupProbe.open(name, pid, new CgroupLocator(root), root.resolve("proc"), CLOCK);
    }

    /** A server on a daemon thread, joined by pipes to the returned connection, which is closed after the test. */
    private AgentConnection serve(Duration timeout) throws IOException {
        return serve(timeout, false);
    }

    private AgentConnection serve(Duration timeout, boolean resetPeaks) throws IOException {
        PipedOutputStream requests = new PipedOutputStream();
        PipedInputStream agentIn = new PipedInputStream(requests, 8192);
        PipedOutputStream agentOut = new PipedOutputStream();
        PipedInputStream answers = new PipedInputStream(agentOut, 8192);
        Thread server = new Thread(() -> {
            try (agentOut) {
                new AgentServer(AgentServerTests::hostProbe, resetPeaks).serve(agentIn, agentOut);
            } catch (IOException e) {
                // the test closed the pipes
            }
        }, "agent-server-test");
        server.setDaemon(true);
        server.start();
        OutputStream counted = new FilterOutputStream(requests) {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                roundTrips.incrementAndGet();
                out.write(bytes, offset, length);
            }
        };
        AgentConnection connection = new AgentConnection(counted,
                new AnswerStream(answers, false, timeout, "answers-test"), "the test agent", () -> { });
        toClose.add(connection);
        return connection;
    }

    @Test
    @DisplayName("a full read through the agent equals the host probe's read of the same files")
    void fullReadEqualsHostProbe() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        try (ResourceProbe probe = AgentProbe.open(connection, V1, CLOCK);
                HostCgroupProbe host = hostProbe("db", Fixtures.V1_PID)) {
            RawReading viaAgent = probe.read();
            RawReading direct = host.read();
            assertThat(probe.kind()).isEqualTo(ProbeKind.AGENT_CGROUP_V1);
            assertThat(probe.kind().exactnessKind()).isEqualTo(ProbeKind.HOST_CGROUP_V1);
            assertThat(probe.describe()).startsWith(host.describe()).contains("via the Vitals agent container");
            assertThat(viaAgent.cpu()).isEqualTo(direct.cpu());
            assertThat(viaAgent.memory()).isEqualTo(direct.memory());
            assertThat(viaAgent.pids()).isEqualTo(direct.pids());
            assertThat(viaAgent.blockIo()).isEqualTo(direct.blockIo());
            assertThat(viaAgent.network()).isEqualTo(direct.network());
            assertThat(viaAgent.pressure()).isEqualTo(direct.pressure());
            assertThat(viaAgent.sourced()).isEqualTo(direct.sourced());
            assertThat(probe.hostShape()).isEqualTo(host.hostShape());
            RawReading fast = probe.readFast(viaAgent);
            assertThat(fast.cpu()).isEqualTo(direct.cpu());
            assertThat(fast.sourced()).as("a fast read carries the full read's figures over").isSameAs(
                    viaAgent.sourced());
            assertThat(probe.goneNow()).isEqualTo(host.goneNow());
            // no reset here: as root it would write into the shared fixture tree
        }
    }

    @Test
    @DisplayName("a batch brings every member's fast reading in one round trip; each probe takes its own once")
    void batchedFastReads() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        try (AgentProbe first = AgentProbe.open(connection, V1, CLOCK);
                AgentProbe second = AgentProbe.open(connection, V1, CLOCK);
                HostCgroupProbe host = hostProbe("db", Fixtures.V1_PID)) {
            assertThat(first.batch()).isSameAs(second.batch()).isSameAs(connection);
            RawReading lastFirst = first.read();
            RawReading lastSecond = second.read();
            RawReading direct = host.read();
            int before = roundTrips.get();

            connection.prefetch(List.of(first, second), List.of());
            RawReading fastFirst = first.readFast(lastFirst);
            RawReading fastSecond = second.readFast(lastSecond);
            assertThat(roundTrips.get()).as("one round trip for both").isEqualTo(before + 1);
            for (RawReading fast : List.of(fastFirst, fastSecond)) {
                assertThat(fast.cpu()).isEqualTo(direct.cpu());
                assertThat(fast.memory()).isEqualTo(direct.memory());
                assertThat(fast.pids()).isEqualTo(direct.pids());
            }
            assertThat(fastFirst.sourced()).as("the full read's figures carried over").isSameAs(lastFirst.sourced());

            first.readFast(fastFirst);
            assertThat(roundTrips.get()).as("an answer is taken once; the next read asks again").isEqualTo(before + 2);
        }
    }

    @Test
    @DisplayName("a batch mixes fast and full reads; a scheduled full read takes its answer, an edge's read() never")
    void batchedFullReads() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        try (AgentProbe first = AgentProbe.open(connection, V1, CLOCK);
                AgentProbe second = AgentProbe.open(connection, V1, CLOCK);
                HostCgroupProbe host = hostProbe("db", Fixtures.V1_PID)) {
            RawReading last = first.read();
            RawReading direct = host.read();
            int before = roundTrips.get();
            connection.prefetch(List.of(first), List.of(second));
            RawReading fast = first.readFast(last);
            RawReading full = second.readScheduled();
            assertThat(roundTrips.get()).as("one round trip for both").isEqualTo(before + 1);
            assertThat(fast.cpu()).isEqualTo(direct.cpu());
            assertThat(full.cpu()).isEqualTo(direct.cpu());
            assertThat(full.memory()).isEqualTo(direct.memory());
            assertThat(full.blockIo()).isEqualTo(direct.blockIo());
            assertThat(full.network()).isEqualTo(direct.network());
            assertThat(full.sourced()).isEqualTo(direct.sourced());

            connection.prefetch(List.of(), List.of(first, second));
            int afterBatch = roundTrips.get();
            second.read(); // a window's edge: read as of now, not from the batch
            assertThat(roundTrips.get()).isEqualTo(afterBatch + 1);
            second.readScheduled(); // its prefetched answer went with the edge's request
            first.readScheduled();
            assertThat(roundTrips.get()).isEqualTo(afterBatch + 2);
        }
    }

    @Test
    @DisplayName("any other request of a watch drops its prefetched answer: a reading is never older than the last")
    void requestDropsPrefetchedAnswer() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        try (AgentProbe first = AgentProbe.open(connection, V1, CLOCK);
                AgentProbe second = AgentProbe.open(connection, V1, CLOCK)) {
            RawReading last = first.read();
            connection.prefetch(List.of(first, second), List.of());
            int afterBatch = roundTrips.get();
            RawReading edge = second.read(); // a test's edge read between the batch and the tick's reads
            second.readFast(edge);
            first.readFast(last);
            assertThat(roundTrips.get()).as("the edge read and second's own fast read; first's was prefetched")
                    .isEqualTo(afterBatch + 2);
        }
    }

    @Test
    @DisplayName("a member the agent cannot read fails alone, with the message its own round trip would give")
    void batchMemberFailsAlone() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        AgentProbe closed = AgentProbe.open(connection, V1, CLOCK);
        RawReading lastClosed = closed.read();
        closed.close(); // the agent forgets it; this side still asks
        try (AgentProbe open = AgentProbe.open(connection, V1, CLOCK)) {
            RawReading last = open.read();
            connection.prefetch(List.of(closed, open), List.of());
            int afterBatch = roundTrips.get();
            assertThatThrownBy(() -> closed.readFast(lastClosed)).isInstanceOf(ProbeException.class)
                    .isNotInstanceOf(ContainerGoneException.class)
                    .hasMessageContaining("could not read container 'db'").hasMessageContaining("watches no container");
            assertThat(open.readFast(last).cpu()).isEqualTo(last.cpu());
            assertThat(roundTrips.get()).isEqualTo(afterBatch);
            assertThat(connection.broken()).isEmpty();
        }
    }

    @Test
    @Timeout(10)
    @DisplayName("the agent dies before a batch: the batch breaks the connection, and each member's read says why")
    void batchOfDeadAgent() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(30));
        AgentProbe first = AgentProbe.open(connection, V1, CLOCK);
        AgentProbe second = AgentProbe.open(connection, V1, CLOCK);
        RawReading last = first.read();
        connection.call(AgentProtocol.QUIT, 0, out -> { }, in -> null, "");
        connection.prefetch(List.of(first, second), List.of()); // does not throw: the reads do
        assertThat(connection.broken()).hasValueSatisfying(why -> assertThat(why).contains("stopped answering"));
        assertThatThrownBy(() -> first.readFast(last)).isInstanceOf(AgentConnection.AgentGoneException.class)
                .hasMessageContaining("stopped answering");
        assertThatThrownBy(second::readScheduled).isInstanceOf(AgentConnection.AgentGoneException.class);
    }

    @Test
    @DisplayName("an agent not allowed to reset marks answers 'not reset' and writes nothing, even where it could")
    void readOnlyAgentWritesNothing() throws Exception {
        List<Path> marks;
        try (Stream<Path> files = Files.walk(Fixtures.v1Root())) {
            marks = files.filter(p -> p.getFileName().toString().equals("memory.max_usage_in_bytes")).toList();
        }
        assertThat(marks).isNotEmpty();
        Map<Path, String> before = new HashMap<>();
        for (Path mark : marks) {
            before.put(mark, Files.readString(mark));
        }
        AgentConnection connection = serve(Duration.ofSeconds(5), false);
        try (ResourceProbe probe = AgentProbe.open(connection, V1, CLOCK)) {
            assertThat(probe.resetHighWaterMark()).isFalse();
            assertThat(probe.hostShape().peakResettable()).isFalse();
        }
        for (Path mark : marks) {
            assertThat(Files.readString(mark)).as("%s untouched", mark).isEqualTo(before.get(mark));
        }
    }

    @Test
    @DisplayName("a fast reading is sent in 153 bytes, a full one in 238 and 9 per sourced figure (and its reason where"
            + " absent): 328 for the recorded v1 tree on 2026-12-03")
    void bytesPerSample() throws Exception {
        RawReading reading = hostProbe("db", Fixtures.V1_PID).read();
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        AgentProtocol.writeFull(new DataOutputStream(full), reading);
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        AgentProtocol.writeFast(new DataOutputStream(fast), reading);
        System.out.printf("bytes per answer: full %d, fast %d%n", full.size() + 1, fast.size() + 1);
        assertThat(fast.size()).isEqualTo(AgentProtocol.FAST_BYTES);
        // derived from the metric model, so that a new sourced figure needs no new golden here
        int sourced = 0;
        for (Metric metric : Metric.sourced()) {
            sourced += Double.BYTES + 1 + reading.sourced().reason(metric)
                    .map(reason -> 2 + reason.getBytes(StandardCharsets.UTF_8).length).orElse(0);
        }
        assertThat(AgentProtocol.FULL_BASE_BYTES).isEqualTo(238);
        assertThat(full.size()).isEqualTo(AgentProtocol.FULL_BASE_BYTES + sourced);
    }

    @Test
    @DisplayName("a PID the agent cannot find is the container gone, as with the host probe")
    void goneContainer() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(5));
        ContainerTarget gone = new ContainerTarget("x", "db", "postgres", 999_999, OptionalLong.empty());
        assertThatThrownBy(() -> AgentProbe.open(connection, gone, CLOCK))
                .isInstanceOf(ContainerGoneException.class);
        assertThat(connection.broken()).as("the agent answered: it still serves").isEmpty();
    }

    @Test
    @Timeout(10)
    @DisplayName("the agent's stream ends: the read fails at once with the reason, and so does every later one")
    void agentDies() throws Exception {
        AgentConnection connection = serve(Duration.ofSeconds(30));
        ResourceProbe probe = AgentProbe.open(connection, V1, CLOCK);
        connection.call(AgentProtocol.QUIT, 0, out -> { }, in -> null, ""); // the server exits, its stdout ends
        assertThatThrownBy(probe::read).isInstanceOf(AgentConnection.AgentGoneException.class)
                .isNotInstanceOf(ContainerGoneException.class).hasMessageContaining("stopped answering")
                .hasMessageContaining("read errors");
        assertThatThrownBy(probe::read).hasMessageContaining("stopped answering");
        probe.close(); // does not wait on the dead agent
    }

    @Test
    @Timeout(10)
    @DisplayName("a silent agent: the read fails after the answer timeout instead of hanging the sampler")
    void agentHangs() throws Exception {
        PipedOutputStream requests = new PipedOutputStream();
        PipedInputStream unread = new PipedInputStream(requests, 8192);
        PipedOutputStream never = new PipedOutputStream();
        AgentConnection connection = new AgentConnection(requests, new AnswerStream(new PipedInputStream(never),
                false, Duration.ofMillis(300), "answers-test"), "the test agent", () -> { });
        toClose.add(unread);
        long start = System.nanoTime();
        assertThatThrownBy(() -> AgentProbe.open(connection, V1, CLOCK))
                .isInstanceOf(AgentConnection.AgentGoneException.class).hasMessageContaining("no answer within 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    @DisplayName("AUTO: host probe refused, agent unavailable: one warning with the reason, the Engine API measures")
    void factoryFallsBackWithOneWarning() throws Exception {
        CgroupAgent unavailable = target -> {
            throw new CgroupAgent.AgentUnavailableException("The Vitals agent image x is not on the Docker engine.");
        };
        List<String> warnings = new ArrayList<>();
        ProbeFactory factory = new ProbeFactory(new CgroupLocator(Path.of("/nonexistent")), Path.of("/nonexistent"),
                CLOCK, () -> null, List.of(), Optional.of(unavailable), warnings::add);
        assertThat(factory.open(V1, ProbeMode.AUTO).kind()).isEqualTo(ProbeKind.ENGINE_API);
        assertThat(factory.open(V1, ProbeMode.AUTO).kind()).isEqualTo(ProbeKind.ENGINE_API);
        assertThat(warnings).containsExactly("The Vitals agent image x is not on the Docker engine. The Docker "
                + "Engine API measures instead (one sample a second, no kernel high-water mark, no OOM-kill count).");
        assertThatThrownBy(() -> factory.open(V1, ProbeMode.AGENT)).hasMessageContaining("not on the Docker engine");
    }

    @Test
    @DisplayName("the tar carries vitals/vitals.jar in whole 512-byte blocks")
    void tarLayout() throws Exception {
        byte[] tar = AgentJar.tarOf(new byte[1000]);
        assertThat(tar.length % 512).isZero();
        assertThat(new String(tar, 512, 17, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo(
                "vitals/vitals.jar");
        assertThat(tar.length).isEqualTo(512 + 512 + 1024 + 1024);
    }
}
