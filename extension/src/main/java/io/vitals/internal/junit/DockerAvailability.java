package io.vitals.internal.junit;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers and Testcontainers can use it, and if not, why and what fixes it. Unlike
 * Testcontainers' own check, the reason is kept, and the two cases a newcomer meets are told apart within
 * seconds: no engine at all, and an engine that answers while Testcontainers hangs on retries for minutes (its
 * helper image {@code testcontainers/ryuk} cannot be pulled, or, inside a container, it starts a helper container
 * to find the host's address).
 */
final class DockerAvailability {

    /** How long Testcontainers may take to get ready once the engine has answered; it takes about a second. */
    static final int READY_TIMEOUT_SECONDS = 20;
    private static final int PING_TIMEOUT_MILLIS = 3000;

    private final Optional<String> unavailableReason;

    private DockerAvailability(Optional<String> unavailableReason) {
        this.unavailableReason = unavailableReason;
    }

    static DockerAvailability check() {
        return check(System.getenv());
    }

    static DockerAvailability check(Map<String, String> environment) {
        String address = EnginePing.address(environment);
        Optional<Boolean> answered = bounded(() -> EnginePing.answers(address, PING_TIMEOUT_MILLIS),
                PING_TIMEOUT_MILLIS + 500L).orElse(Optional.of(false));
        // client() alone already starts Ryuk and, inside a container, may look for the host's address
        AtomicReference<String> stage = new AtomicReference<>("getting ready (connecting, starting Ryuk, finding "
                + "the host's address)");
        long started = System.nanoTime();
        CompletableFuture<Void> ready = CompletableFuture.runAsync(() -> {
            DockerClientFactory.instance().client().pingCmd().exec();
            stage.set("finding the host's address");
            DockerClientFactory.instance().dockerHostIpAddress();
        }, runnable -> {
            Thread thread = new Thread(runnable, "vitals-docker-check");
            thread.setDaemon(true); // a hung Testcontainers call must not keep the JVM alive
            thread.start();
        });
        try {
            ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return new DockerAvailability(Optional.empty());
        } catch (TimeoutException e) {
            return new DockerAvailability(Optional.of(engineFineButUnusable(address, answered,
                    "it was still " + stage.get() + " after " + READY_TIMEOUT_SECONDS + " s", environment)));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause.getClass().getSimpleName() + ": " + (cause.getMessage() == null ? ""
                    : cause.getMessage().lines().findFirst().orElse(""));
            if (answered.orElse(false)) {
                return new DockerAvailability(Optional.of(engineFineButUnusable(address, answered,
                        "it failed after " + (System.nanoTime() - started) / 1_000_000_000 + " s while "
                                + stage.get() + ": " + message, environment)));
            }
            return new DockerAvailability(Optional.of("no Docker engine answers at " + address
                    + (answered.isEmpty() ? "" : " (GET /_ping)") + ": " + message));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new DockerAvailability(Optional.of("interrupted while checking the Docker engine"));
        }
    }

    private static String engineFineButUnusable(String address, Optional<Boolean> answered, String what,
            Map<String, String> environment) {
        StringBuilder reason = new StringBuilder(answered.orElse(false)
                ? "the Docker engine at " + address + " answers GET /_ping, but Testcontainers cannot use it: "
                : "Testcontainers cannot use the Docker engine: ").append(what).append(". ");
        boolean ryukOn = !"true".equalsIgnoreCase(environment.getOrDefault("TESTCONTAINERS_RYUK_DISABLED", ""));
        boolean noOverride = environment.getOrDefault("TESTCONTAINERS_HOST_OVERRIDE", "").isBlank();
        if (ryukOn) {
            reason.append("If its helper image testcontainers/ryuk cannot be pulled here, set the environment "
                    + "variable TESTCONTAINERS_RYUK_DISABLED=true. ");
        }
        if (noOverride) {
            reason.append("If the tests run inside a container or the engine's ports are published on this host, "
                    + "set TESTCONTAINERS_HOST_OVERRIDE=localhost (Testcontainers otherwise starts a helper "
                    + "container to find the host's address). ");
        }
        return reason.append("In Maven, put them under Surefire's and Failsafe's <environmentVariables>; see "
                + "docs/troubleshooting.md.").toString();
    }

    private static <T> Optional<T> bounded(java.util.function.Supplier<T> call, long millis) {
        CompletableFuture<T> future = CompletableFuture.supplyAsync(call, runnable -> {
            Thread thread = new Thread(runnable, "vitals-engine-ping");
            thread.setDaemon(true);
            thread.start();
        });
        try {
            return Optional.ofNullable(future.get(millis, TimeUnit.MILLISECONDS));
        } catch (TimeoutException | ExecutionException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    Optional<String> unavailableReason() {
        return unavailableReason;
    }
}
