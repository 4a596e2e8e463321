package io.vitals.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The agent's request pipe")
class RequestPipeTests {

    @Test
    @DisplayName("a request written after its previous writer's thread ended and the reader waited 3 s still arrives "
            + "(java.io's pipe failed here with 'Read end dead')")
    void writersMayComeAndGo() throws Exception {
        RequestPipe pipe = new RequestPipe();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        AtomicReference<IOException> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> copy(pipe.source(), received, failure), "reader");
        reader.start();

        Thread first = new Thread(() -> write(pipe, "first;"), "first writer");
        first.start();
        first.join();
        // java.io.PipedInputStream gives up after two one-second waits with its last writer gone
        Thread.sleep(3_000);
        Thread second = new Thread(() -> write(pipe, "second;"), "second writer");
        second.start();
        second.join();
        pipe.sink().close();
        reader.join(TimeUnit.SECONDS.toMillis(5));

        assertThat(failure.get()).isNull();
        assertThat(received.toString(StandardCharsets.US_ASCII)).isEqualTo("first;second;");
    }

    @Test
    @DisplayName("reads split a request and join nothing across requests; the end reads as -1, again and again")
    void readsAndEnd() throws Exception {
        RequestPipe pipe = new RequestPipe();
        pipe.sink().write("abcde".getBytes(StandardCharsets.US_ASCII), 1, 3);
        pipe.sink().write('f');
        pipe.sink().close();

        byte[] buffer = new byte[2];
        InputStream source = pipe.source();
        assertThat(source.available()).isZero();
        assertThat(source.read(buffer, 0, 2)).isEqualTo(2);
        assertThat(new String(buffer, StandardCharsets.US_ASCII)).isEqualTo("bc");
        assertThat(source.available()).isEqualTo(1);
        assertThat(source.read(buffer, 0, 2)).isEqualTo(1);
        assertThat((char) buffer[0]).isEqualTo('d');
        assertThat(source.read()).isEqualTo('f');
        assertThat(source.read()).isEqualTo(-1);
        assertThat(source.read(buffer, 0, 2)).isEqualTo(-1);
    }

    @Test
    @DisplayName("a write after the close fails, naming the stream")
    void writeAfterClose() throws IOException {
        RequestPipe pipe = new RequestPipe();
        pipe.sink().close();

        assertThatThrownBy(() -> pipe.sink().write(1)).isInstanceOf(IOException.class)
                .hasMessage("The agent's request stream is closed");
    }

    @Test
    @DisplayName("a reader interrupted while it waits gets an InterruptedIOException and keeps its interrupt")
    void interruptedReader() throws Exception {
        RequestPipe pipe = new RequestPipe();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                pipe.source().read();
                outcome.complete(null);
            } catch (IOException e) {
                outcome.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("interrupt lost"));
            }
        });
        reader.start();
        reader.interrupt();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
    }

    private static void copy(InputStream source, ByteArrayOutputStream into, AtomicReference<IOException> failure) {
        byte[] buffer = new byte[64];
        try {
            for (int n = source.read(buffer); n >= 0; n = source.read(buffer)) {
                synchronized (into) {
                    into.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            failure.set(e);
        }
    }

    private static void write(RequestPipe pipe, String request) {
        try {
            pipe.sink().write(request.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
