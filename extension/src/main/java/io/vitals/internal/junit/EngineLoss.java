package io.vitals.internal.junit;

import io.vitals.ResourceUsage;
import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.junit.engine.EnginePing;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.units.DurationParser;

import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The Docker engine stopped answering during a test: which engine, when it was last seen and when it was found
 * silent. Suspected when the test's exception chain holds a connection failure (what docker-java throws when the
 * daemon is gone: {@code ConnectException: Connection refused}, a reset, a request it never answered), when the heartbeat missed a ping during
 * the test, or when a container looks wrong (its probe failed or lost it); then confirmed by one ping, so that a
 * test's own network failure never reads as a dead engine.
 *
 * @param engine the engine's address as Testcontainers uses it, e.g. {@code tcp://127.0.0.1:23750}
 * @param lastSeen when in the test the engine last answered; empty when not during the test
 * @param noticedAt when in the test it was first found not answering
 * @param detail why the confirming ping got no answer, e.g. "ConnectException: Connection refused"
 */
record EngineLoss(String engine, Optional<Duration> lastSeen, Duration noticedAt, String detail) {

    /** Whether the engine is gone: empty when nothing hints at it, or when it still answers. */
    static Optional<EngineLoss> check(EngineHeartbeat heartbeat, Instant testStart, Optional<Throwable> thrown,
            boolean containerLooksWrong) {
        // a miss is cleared by the next answer: one still recorded means the engine was silent at the last ping
        boolean missed = heartbeat.missedSince().isPresent();
        if (!missed && !containerLooksWrong && thrown.filter(EngineLoss::connectionFailure).isEmpty()) {
            return Optional.empty();
        }
        Optional<EnginePing.Answer> answer = confirm(heartbeat);
        if (answer.isEmpty() || answer.get().ok()) {
            return Optional.empty(); // it answers (the failure was the test's own), or it cannot be asked
        }
        Instant silentSince = heartbeat.missedSince().orElse(Instant.now());
        Optional<Duration> lastSeen = heartbeat.lastAnswered().filter(at -> !at.isBefore(testStart))
                .map(at -> Duration.between(testStart, at));
        Duration noticed = Duration.between(testStart, silentSince.isBefore(testStart) ? testStart : silentSince);
        return Optional.of(new EngineLoss(heartbeat.address().orElse("(unknown engine)"), lastSeen, noticed,
                answer.get().detail()));
    }

    /**
     * Whether {@code thrown} or a cause of it is a failure to reach a socket: a refused or reset connection, as
     * docker-java (and so Testcontainers) throws it, wrapped or not, when the daemon went away.
     */
    /**
     * Asks until the engine answers, refuses twice in a row, or has stayed silent for {@link #SILENT_LIMIT}. A slow
     * engine is not a dead one: rootless Podman under software emulation left a 2 s ping unanswered during a large
     * fsync and a passing test was failed as ENGINE_GONE; a killed daemon refuses the connection at once, so this
     * costs the real case one more ping.
     */
    private static Optional<EnginePing.Answer> confirm(EngineHeartbeat heartbeat) {
        long deadline = System.nanoTime() + SILENT_LIMIT.toNanos();
        boolean refusedBefore = false;
        while (true) {
            Optional<EnginePing.Answer> answer = heartbeat.ping(EngineHeartbeat.CONFIRM_TIMEOUT_MILLIS);
            if (answer.isEmpty() || answer.get().ok()) {
                return answer;
            }
            boolean slow = answer.get().timedOut();
            if (!slow && refusedBefore || System.nanoTime() - deadline > 0) {
                return answer;
            }
            refusedBefore = !slow;
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return answer;
            }
        }
    }

    /** How long an engine may stay silent (not refusing, just not answering) before it counts as gone. */
    static final Duration SILENT_LIMIT = Duration.ofSeconds(15);

    static boolean connectionFailure(Throwable thrown) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof SocketException || t instanceof ClosedChannelException) {
                return true;
            }
            // docker-java's HTTP clients (shaded Apache HttpCore): a request cut off when the daemon died
            if (t.getClass().getSimpleName().equals("NoHttpResponseException")) {
                return true;
            }
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("connection refused") || message.contains("connection reset")
                    || message.contains("broken pipe") || message.contains("failed to respond")) {
                return true;
            }
        }
        return false;
    }

    /** The fault of one container of the test: the engine's, worded with what was measured of it. */
    ContainerFault fault(MeasuredContainer container, ResourceUsage usage) {
        String description = "the Docker engine " + engine + " stopped answering during the test: "
                + lastSeen.map(at -> "last seen at " + DurationParser.format(at))
                        .orElse("not seen answering since the test started")
                + ", no answer at " + DurationParser.format(noticedAt) + " (" + detail + "). Container '"
                + container.name() + "' was measured for " + DurationParser.format(usage.wallTime()) + " ("
                + usage.timeline().samples() + " samples): a partial window, its figures and budgets cover only "
                + "that. The container cannot be stopped or removed through that engine: Vitals removes it when "
                + "the engine answers again before the test class ends; else remove it then with docker -H "
                + engine + " rm -f " + shortId(container.containerId());
        return new ContainerFault(ContainerFault.Kind.ENGINE_GONE, OptionalLong.empty(), Optional.of(noticedAt),
                lastSeen, description);
    }

    private static String shortId(String containerId) {
        return containerId.length() > 12 ? containerId.substring(0, 12) : containerId;
    }
}
