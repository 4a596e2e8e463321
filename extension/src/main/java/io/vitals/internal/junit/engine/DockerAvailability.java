package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.log.UserLog;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.apiguardian.api.API;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * Whether a Docker engine answers and Testcontainers can use it, and if not, why and what fixes it. Unlike
 * Testcontainers' own check, the reason is kept, and the two cases a newcomer meets are told apart within
 * seconds: no engine at all, and an engine that answers while Testcontainers hangs on retries for minutes (its
 * helper image {@code testcontainers/ryuk} cannot be pulled, or, inside a container, it starts a helper container
 * to find the host's address). And an engine named ({@code DOCKER_HOST}) that does not answer is never silently
 * replaced by another one Testcontainers finds.
 */
@API(status = INTERNAL, since = "0.1")
public final class DockerAvailability {

    /** How long Testcontainers may take to get ready once the engine has answered; it takes about a second. */
    static final int READY_TIMEOUT_SECONDS = 20;
    private static final int PING_TIMEOUT_MILLIS = 3000;

    private static final String DEFAULT_ENGINE = "unix:///var/run/docker.sock";

    private final Optional<String> unavailableReason;
    private final boolean failsAlways;

    private DockerAvailability(Optional<String> unavailableReason, boolean failsAlways) {
        this.unavailableReason = unavailableReason;
        this.failsAlways = failsAlways;
    }

    private static DockerAvailability available() {
        return new DockerAvailability(Optional.empty(), false);
    }

    private static DockerAvailability unavailable(String reason) {
        return new DockerAvailability(Optional.of(reason), false);
    }

    /** The engine a user named: where it was named, and its address. */
    record NamedEngine(String source, String address) {
    }

    public static DockerAvailability check() {
        return check(System.getenv(), namedEngine(System.getenv(), TestcontainersConfiguration.getInstance()
                .getUserProperties().getProperty("docker.host")));
    }

    /**
     * The engine named by {@code DOCKER_HOST}, else by {@code docker.host} of Testcontainers' user configuration
     * ({@code ~/.testcontainers.properties}): the two places Testcontainers' first strategy reads, in its order.
     */
    static Optional<NamedEngine> namedEngine(Map<String, String> environment, String userProperty) {
        String fromEnvironment = environment.getOrDefault("DOCKER_HOST", "").trim();
        if (!fromEnvironment.isEmpty()) {
            return Optional.of(new NamedEngine("DOCKER_HOST", fromEnvironment));
        }
        if (userProperty != null && !userProperty.isBlank()) {
            return Optional.of(new NamedEngine("docker.host in ~/.testcontainers.properties", userProperty.trim()));
        }
        return Optional.empty();
    }

    static DockerAvailability check(Map<String, String> environment, Optional<NamedEngine> named) {
        String address = named.map(NamedEngine::address).orElse(DEFAULT_ENGINE);
        Optional<EnginePing.Answer> answer = bounded(() -> EnginePing.ask(address, PING_TIMEOUT_MILLIS),
                PING_TIMEOUT_MILLIS + 500L).orElse(Optional.of(EnginePing.Answer.no("no answer to GET /_ping within "
                        + PING_TIMEOUT_MILLIS + " ms")));
        Optional<Boolean> answered = answer.map(EnginePing.Answer::ok);
        // client() alone already starts Ryuk and, inside a container, may look for the host's address
        AtomicReference<String> stage = new AtomicReference<>("getting ready (connecting, starting Ryuk, finding "
                + "the host's address)");
        long started = System.nanoTime();
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            DockerClientFactory.instance().client().pingCmd().exec();
            stage.set("finding the host's address");
            DockerClientFactory.instance().dockerHostIpAddress();
            return String.valueOf(DockerClientFactory.instance().getTransportConfig().getDockerHost());
        }, runnable -> {
            Thread thread = new Thread(runnable, "vitals-docker-check");
            thread.setDaemon(true); // a hung Testcontainers call must not keep the JVM alive
            thread.start();
        });
        try {
            String used = ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return usedEngine(named, answer, used);
        } catch (TimeoutException e) {
            return unavailable(engineFineButUnusable(address, answered,
                    "it was still " + stage.get() + " after " + READY_TIMEOUT_SECONDS + " s", environment));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String message = cause.getClass().getSimpleName() + ": " + (cause.getMessage() == null ? ""
                    : cause.getMessage().lines().findFirst().orElse(""));
            if (answered.orElse(false)) {
                return unavailable(engineFineButUnusable(address, answered,
                        "it failed after " + (System.nanoTime() - started) / 1_000_000_000 + " s while "
                                + stage.get() + ": " + message, environment));
            }
            return unavailable("no Docker engine answers at " + address
                    + (answer.isEmpty() ? "" : " (GET /_ping: " + answer.get().detail() + ")") + ": " + message);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unavailable("interrupted while checking the Docker engine");
        }
    }

    /**
     * Testcontainers found an engine. When the user named another one, which did not answer, Testcontainers fell
     * back to its other strategies (the default socket, Docker Desktop's): measuring there would report figures of
     * an engine nobody asked for, so the run fails whatever {@code vitals.requireDocker} says. When the named one
     * answered and Testcontainers still chose another, the console says which engine the figures come from.
     */
    static DockerAvailability usedEngine(Optional<NamedEngine> named, Optional<EnginePing.Answer> answer,
            String used) {
        if (named.isEmpty() || sameEngine(named.get().address(), used)) {
            return available();
        }
        NamedEngine engine = named.get();
        if (answer.isPresent() && !answer.get().ok()) {
            return new DockerAvailability(Optional.of(engine.source() + " names the Docker engine "
                    + engine.address() + ", which does not answer (" + answer.get().detail()
                    + "); Testcontainers would have used " + used + " instead. Vitals measures only the engine "
                    + "named: start that engine, or correct or unset " + engine.source() + "."), true);
        }
        UserLog.named(UserLog.ENGINE).info(engine.source() + " names the Docker engine " + engine.address()
                + ", but Testcontainers uses " + used + ": the containers measured run there");
        return available();
    }

    private static boolean sameEngine(String named, String used) {
        return strip(named).equals(strip(used));
    }

    private static String strip(String address) {
        String trimmed = address.trim();
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
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

    public Optional<String> unavailableReason() {
        return unavailableReason;
    }

    /** Whether the class fails even where {@code vitals.requireDocker=false} would skip it. */
    public boolean failsAlways() {
        return failsAlways;
    }
}
