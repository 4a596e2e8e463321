package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;

/**
 * Knows when the Docker engine Testcontainers uses last answered: it asks {@code GET /_ping} at most once per
 * {@link #PERIOD} while any window is open, from the sampler thread (each window's readings call it), so that a
 * fault can say when an engine that went away was last seen. The host probe reads cgroup files and keeps reading
 * after the engine died (the container's shim keeps it running), so only the engine side can tell. One ping a
 * second per test JVM costs well under a millisecond; a ping never waits longer than {@link #TIMEOUT_MILLIS}, and
 * after a miss the next one waits {@link #AFTER_MISS}, so a remote engine that went silent slows sampling little.
 */
@API(status = INTERNAL, since = "0.1")
public final class EngineHeartbeat implements Consumer<RawReading> {

    public static final Duration PERIOD = Duration.ofSeconds(1);
    static final Duration AFTER_MISS = Duration.ofSeconds(5);
    public static final int TIMEOUT_MILLIS = 500;
    /** The confirming ping when a fault is suspected: once per test at most, so it may wait longer. */
    public static final int CONFIRM_TIMEOUT_MILLIS = 2000;

    private final Supplier<Optional<String>> addressSource;
    private final AtomicLong nextPingNanos = new AtomicLong(System.nanoTime());
    private volatile Optional<String> address;
    private volatile Optional<Instant> lastAnswered = Optional.empty();
    private volatile Optional<Instant> missedSince = Optional.empty();

    /** The engine Testcontainers resolved ({@code DOCKER_HOST} or the strategy it found), as it names it. */
    public EngineHeartbeat() {
        this(EngineHeartbeat::testcontainersEngine);
    }

    public EngineHeartbeat(Supplier<Optional<String>> addressSource) {
        this.addressSource = addressSource;
    }

    private static Optional<String> testcontainersEngine() {
        try {
            return Optional.of(String.valueOf(DockerClientFactory.instance().getTransportConfig().getDockerHost()));
        } catch (RuntimeException e) {
            return Optional.empty(); // Testcontainers found no engine: no container runs, nothing to watch
        }
    }

    /** The engine's address, as Testcontainers uses it; empty when it found none. */
    public Optional<String> address() {
        Optional<String> known = address;
        if (known == null) {
            known = addressSource.get();
            address = known;
        }
        return known;
    }

    /** A reading arrived: ping the engine if a period has passed since the last ping. */
    @Override
    public void accept(RawReading reading) {
        long now = System.nanoTime();
        long next = nextPingNanos.get();
        if (now - next < 0 || !nextPingNanos.compareAndSet(next, now + PERIOD.toNanos())) {
            return; // not yet, or another window's reading pings now
        }
        Optional<EnginePing.Answer> answer = ping(TIMEOUT_MILLIS);
        if (answer.isPresent() && !answer.get().ok()) {
            nextPingNanos.set(System.nanoTime() + AFTER_MISS.toNanos());
        }
    }

    /**
     * Asks the engine now and records the answer; empty when the address is not one {@link EnginePing} can ask
     * (TLS, or no engine found).
     */
    public Optional<EnginePing.Answer> ping(int timeoutMillis) {
        Optional<EnginePing.Answer> answer = address().flatMap(a -> EnginePing.ask(a, timeoutMillis));
        answer.ifPresent(a -> {
            Instant now = Instant.now();
            if (a.ok()) {
                lastAnswered = Optional.of(now);
                missedSince = Optional.empty();
            } else if (missedSince.isEmpty()) {
                missedSince = Optional.of(now);
            }
        });
        return answer;
    }

    /** When the engine last answered a ping. */
    public Optional<Instant> lastAnswered() {
        return lastAnswered;
    }

    /** Since when the engine has not answered: the first missed ping after the last answered one. */
    public Optional<Instant> missedSince() {
        return missedSince;
    }
}
