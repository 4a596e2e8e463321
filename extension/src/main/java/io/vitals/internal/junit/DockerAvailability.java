package io.vitals.internal.junit;

import java.util.Optional;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers, and if not, why. Unlike Testcontainers' own check, the reason is kept: "skipped
 * because Docker is not available" alone sends people hunting.
 */
final class DockerAvailability {

    private final Optional<String> unavailableReason;

    private DockerAvailability(Optional<String> unavailableReason) {
        this.unavailableReason = unavailableReason;
    }

    static DockerAvailability check() {
        try {
            DockerClientFactory.instance().client().pingCmd().exec();
            return new DockerAvailability(Optional.empty());
        } catch (RuntimeException | LinkageError e) {
            String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            return new DockerAvailability(Optional.of(e.getClass().getSimpleName() + ": " + message));
        }
    }

    Optional<String> unavailableReason() {
        return unavailableReason;
    }
}
