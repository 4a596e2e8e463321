package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;

import java.io.PrintStream;
import java.util.function.BooleanSupplier;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/**
 * What a test class does when the Docker engine cannot be used: fail (the default), or, where the user opted in
 * with {@code vitals.requireDocker=false}, skip with the reason. A skip is said on standard error as well as in
 * the skip reason (through the {@code io.vitals.engine} logger, or on standard error without an SLF4J provider):
 * Maven prints no JUnit skip reason, and "Tests run: 0" alone reads as green.
 */
@API(status = INTERNAL, since = "0.1")
public final class EngineGate {

    private final PrintStream console;

    public EngineGate(PrintStream console) {
        this.console = console;
    }

    /**
     * @param requireDocker asked only when no engine answers: a class's settings are read (and a bad one reported)
     *     by its {@code beforeAll}, not by a condition, whose failure JUnit would wrap
     */
    public ConditionEvaluationResult condition(String className, DockerAvailability docker, BooleanSupplier requireDocker) {
        if (docker.unavailableReason().isEmpty()) {
            return ConditionEvaluationResult.enabled("a Docker engine is available");
        }
        if (docker.failsAlways() || requireDocker.getAsBoolean()) {
            return ConditionEvaluationResult.enabled("Docker is required; the class will fail");
        }
        String why = skipReason(docker.unavailableReason().get());
        console.println("[vitals] " + className + " SKIPPED: " + why);
        return ConditionEvaluationResult.disabled(why);
    }

    static String skipReason(String unavailableReason) {
        return "Docker is not available (" + unavailableReason + "); skipped because " + MeasureResources
                .REQUIRE_DOCKER_KEY + "=false (leave it unset, or set it to true, to fail instead)";
    }

    /** @throws IllegalStateException with the reason, when the engine cannot be used and the class must fail */
    public static void failIfUnusable(DockerAvailability docker) {
        if (docker.unavailableReason().isEmpty()) {
            return;
        }
        if (docker.failsAlways()) {
            throw new IllegalStateException(docker.unavailableReason().get());
        }
        throw new IllegalStateException("A Docker engine is required (" + MeasureResources.REQUIRE_DOCKER_KEY
                + "=true, the default; set it to false to skip instead) but none is reachable: "
                + docker.unavailableReason().get());
    }
}
