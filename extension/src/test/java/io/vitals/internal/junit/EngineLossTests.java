package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.junit.engine.EnginePing;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.result.ContainerFault;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine gone during a test is told from the test's own failures by one ping, and the fault says which
 * engine, when it was last seen and when it was found silent. The engine is a loopback socket here: one that
 * answers {@code GET /_ping} like dockerd, or a port nobody listens on, as after the daemon was killed.
 */
class EngineLossTests {

    private static final Instant START = Instant.now();

    @Test
    @DisplayName("a refused or reset connection anywhere in the chain is a connection failure; an assertion is not")
    void connectionFailures() {
        assertThat(EngineLoss.connectionFailure(new RuntimeException(new ConnectException("Connection refused"))))
                .isTrue();
        // Testcontainers often keeps only the text of the cause
        assertThat(EngineLoss.connectionFailure(new RuntimeException("java.net.ConnectException: Connection "
                + "refused"))).isTrue();
        assertThat(EngineLoss.connectionFailure(new IllegalStateException("x", new IOException("Connection reset "
                + "by peer")))).isTrue();
        // a request the daemon never answered because it was killed while handling it, as the IT saw
        assertThat(EngineLoss.connectionFailure(new RuntimeException("com.github.dockerjava.zerodep.shaded.org.apache"
                + ".hc.core5.http.NoHttpResponseException: 127.0.0.1:23750 failed to respond"))).isTrue();
        assertThat(EngineLoss.connectionFailure(new AssertionError("expected 3 but was 4"))).isFalse();
    }

    @Test
    @DisplayName("nothing hints at a lost engine: the engine is not even asked")
    void noHintNoPing() {
        AtomicInteger asked = new AtomicInteger();
        EngineHeartbeat heartbeat = new EngineHeartbeat(() -> {
            asked.incrementAndGet();
            return Optional.of("tcp://127.0.0.1:1");
        });

        assertThat(EngineLoss.check(heartbeat, START, Optional.of(new AssertionError("4 != 3")), false)).isEmpty();
        assertThat(asked).hasValue(0);
    }

    @Test
    @DisplayName("a connection failure while the engine answers is the test's own: no engine fault")
    void engineStillAnswers() throws Exception {
        try (FakeEngine engine = new FakeEngine()) {
            EngineHeartbeat heartbeat = new EngineHeartbeat(() -> Optional.of(engine.address()));

            assertThat(EngineLoss.check(heartbeat, START, Optional.of(new ConnectException("Connection refused")),
                    false)).isEmpty();
            assertThat(heartbeat.lastAnswered()).isPresent();
        }
    }

    @Test
    @DisplayName("seen answering, then silent: the fault names the engine, when it was last seen, when it was "
            + "found silent, and the partial window")
    void engineGone() throws Exception {
        Instant start = Instant.now();
        FakeEngine engine = new FakeEngine();
        String address = engine.address();
        EngineHeartbeat heartbeat = new EngineHeartbeat(() -> Optional.of(address));
        assertThat(heartbeat.ping(1000)).map(EnginePing.Answer::ok).contains(true);
        Duration answeredBy = Duration.between(start, Instant.now());
        Thread.sleep(200);
        engine.close(); // the daemon is killed: its port refuses connections

        Optional<EngineLoss> loss = EngineLoss.check(heartbeat, start,
                Optional.of(new RuntimeException(new ConnectException("Connection refused"))), false);

        assertThat(loss).isPresent();
        assertThat(loss.get().engine()).isEqualTo(address);
        assertThat(loss.get().lastSeen()).hasValueSatisfying(at -> assertThat(at)
                .isBetween(Duration.ZERO, answeredBy)); // a bound from the clock, not a guess: a busy machine pings late
        assertThat(loss.get().noticedAt()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(loss.get().detail()).startsWith("ConnectException");
        MeasuredContainer container = new MeasuredContainer("stress", "0123456789abcdef0123", null, null, null,
                null);
        ContainerFault fault = loss.get().fault(container, ReportFixtures.usage("stress", 1.0, 40));
        assertThat(fault.kind()).isEqualTo(ContainerFault.Kind.ENGINE_GONE);
        assertThat(fault.partialWindow()).isTrue();
        assertThat(fault.lastSeen()).isEqualTo(loss.get().lastSeen());
        assertThat(fault.at()).contains(loss.get().noticedAt());
        assertThat(fault.description()).startsWith("the Docker engine " + address + " stopped answering during "
                + "the test: last seen at ").contains(", no answer at ", "(ConnectException",
                "Container 'stress' was measured for ", "(40 samples): a partial window",
                "docker -H " + address + " rm -f 0123456789ab");
    }

    @Test
    @DisplayName("the heartbeat pings at most once a period, whatever the number of readings")
    void heartbeatIsThrottled() throws Exception {
        try (FakeEngine engine = new FakeEngine()) {
            EngineHeartbeat heartbeat = new EngineHeartbeat(() -> Optional.of(engine.address()));
            for (int i = 0; i < 50; i++) {
                heartbeat.accept(null);
            }
            Thread.sleep(200);

            assertThat(engine.answered()).isEqualTo(1);
            assertThat(heartbeat.lastAnswered()).isPresent();
        }
    }

    @Test
    @DisplayName("an engine socket that accepts and never answers holds a ping no longer than its timeout")
    void silentUnixSocketIsBounded(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("docker.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket)); // accepts (the kernel's backlog), never answers
            long started = System.nanoTime();

            Optional<EnginePing.Answer> answer = EnginePing.ask("unix://" + socket, 300);

            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(answer).hasValueSatisfying(a -> assertThat(a.detail())
                    .isEqualTo("no answer to GET /_ping within 300 ms"));
            assertThat(millis).isBetween(250L, 2000L);
        }
    }

    /**
     * Answers every connection with dockerd's reply to {@code GET /_ping}; a closed one refuses connections. The
     * serving thread closes the socket itself: closed from another thread while it waits in {@code accept}, the
     * socket took one more connection in 13 of 30 runs.
     */
    static final class FakeEngine implements AutoCloseable {

        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final AtomicInteger answered = new AtomicInteger();
        private final Thread thread = new Thread(this::serve, "fake-engine");
        private volatile boolean stopping;

        FakeEngine() throws IOException {
            server.setSoTimeout(20);
            thread.setDaemon(true);
            thread.start();
        }

        String address() {
            return "tcp://127.0.0.1:" + server.getLocalPort();
        }

        int answered() {
            return answered.get();
        }

        private void serve() {
            try (server) {
                while (!stopping) {
                    try (Socket client = server.accept()) {
                        client.getInputStream().read(new byte[512]);
                        OutputStream out = client.getOutputStream();
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK"
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        answered.incrementAndGet();
                    } catch (SocketTimeoutException e) {
                        // look at the stop flag again
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }

        @Override
        public void close() {
            stopping = true;
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
