package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Asks the Docker engine {@code GET /_ping} with a plain socket, without Testcontainers: so that "no engine" and
 * "an engine Testcontainers cannot use" can be told apart. Only plain {@code unix://} and {@code tcp://} hosts are
 * tried (TLS and Testcontainers' other strategies are left to Testcontainers' own check). Every answer comes within
 * about the timeout: the connect, and the wait for the answer, are bounded on both kinds of socket.
 */
@API(status = INTERNAL, since = "0.1")
public final class EnginePing {

    private EnginePing() {
    }

    /** What the engine at an address said: whether it answered {@code OK}, and if not, what went wrong. */
    @API(status = INTERNAL, since = "0.1")
    public record Answer(boolean ok, String detail) {

        static Answer no(String detail) {
            return new Answer(false, detail);
        }

        /** Whether the engine was reached but did not answer in time: slow, perhaps, rather than gone. */
        public boolean timedOut() {
            return !ok && (detail.startsWith("no answer to GET /_ping within") || detail.contains("Timeout")
                    || detail.contains("timed out"));
        }
    }

    /** True when the engine at {@code address} answered {@code OK}; empty when the address is not a plain one. */
    static Optional<Boolean> answers(String address, int timeoutMillis) {
        return ask(address, timeoutMillis).map(Answer::ok);
    }

    /** The engine's answer, or why there was none; empty when the address is not a plain one. */
    public static Optional<Answer> ask(String address, int timeoutMillis) {
        URI uri;
        try {
            uri = URI.create(address);
        } catch (IllegalArgumentException e) {
            return Optional.of(Answer.no("not an address: " + e.getMessage()));
        }
        try {
            if ("unix".equals(uri.getScheme())) {
                Path socket = Path.of(uri.getPath());
                if (!Files.exists(socket)) {
                    return Optional.of(Answer.no("no such socket: " + socket));
                }
                try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                        Selector selector = Selector.open()) {
                    // connecting to a local socket does not wait: it is accepted, or refused at once
                    channel.connect(UnixDomainSocketAddress.of(socket));
                    channel.write(ByteBuffer.wrap(request().getBytes(StandardCharsets.US_ASCII)));
                    // a blocking channel has no read timeout, and an engine that accepts but never answers (a
                    // stopped daemon) must not hold the caller, which may be the sampler thread: wait with a deadline
                    channel.configureBlocking(false);
                    channel.register(selector, SelectionKey.OP_READ);
                    ByteBuffer buffer = ByteBuffer.allocate(512);
                    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
                    while (buffer.hasRemaining()) {
                        long left = (deadline - System.nanoTime()) / 1_000_000L;
                        if (left <= 0) {
                            if (buffer.position() > 0) {
                                break;
                            }
                            return Optional.of(Answer.no("no answer to GET /_ping within " + timeoutMillis + " ms"));
                        }
                        selector.select(left);
                        selector.selectedKeys().clear();
                        if (channel.read(buffer) < 0) {
                            break; // the engine closed the connection: the answer is complete
                        }
                    }
                    return Optional.of(answer(new String(buffer.array(), 0, buffer.position(),
                            StandardCharsets.US_ASCII)));
                }
            }
            if ("tcp".equals(uri.getScheme()) && System.getenv("DOCKER_TLS_VERIFY") == null) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), timeoutMillis);
                    socket.setSoTimeout(timeoutMillis);
                    OutputStream out = socket.getOutputStream();
                    out.write(request().getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    InputStream in = socket.getInputStream();
                    return Optional.of(answer(new String(in.readNBytes(512), StandardCharsets.US_ASCII)));
                }
            }
        } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
            return Optional.of(Answer.no(e.getClass().getSimpleName() + (e.getMessage() == null ? ""
                    : ": " + e.getMessage())));
        }
        return Optional.empty();
    }

    private static String request() {
        return "GET /_ping HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n";
    }

    private static Answer answer(String response) {
        if (response.startsWith("HTTP/1.") && response.contains(" 200 ")) {
            return new Answer(true, "OK");
        }
        return Answer.no(response.isEmpty() ? "no answer to GET /_ping"
                : "GET /_ping answered " + response.lines().findFirst().orElse(""));
    }
}
