package io.vitals.internal.junit;

import com.github.dockerjava.api.DockerClient;

import java.util.List;
import java.util.Optional;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;

/**
 * A container's own start-up check, watched: when it finds the container did not start, what the container said
 * (exit code, last log lines) is kept. Testcontainers stops and removes a container that failed to start before
 * its failure reaches any extension callback, so this is the last moment the facts can be read. It delegates every
 * decision, so the container starts, or fails, exactly as it would without it.
 */
final class StartupWitness extends StartupCheckStrategy {

    private final StartupCheckStrategy delegate;
    private final String fieldName;
    private volatile Optional<String> told = Optional.empty();

    private StartupWitness(StartupCheckStrategy delegate, String fieldName) {
        this.delegate = delegate;
        this.fieldName = fieldName;
    }

    /** Watches the start-up of every container of {@code fields} not started yet. */
    static void install(List<WatchedField> fields) {
        for (WatchedField field : fields) {
            field.container(Optional.empty())
                    .filter(container -> container instanceof GenericContainer<?> generic
                            && generic.getContainerId() == null
                            && !(generic.getStartupCheckStrategy() instanceof StartupWitness))
                    .map(container -> (GenericContainer<?>) container)
                    .ifPresent(generic -> generic.setStartupCheckStrategy(
                            new StartupWitness(generic.getStartupCheckStrategy(), field.name())));
        }
    }

    /** What the container said when it failed its start-up check, if it did. */
    static Optional<String> told(Object container) {
        return container instanceof GenericContainer<?> generic
                && generic.getStartupCheckStrategy() instanceof StartupWitness witness ? witness.told
                : Optional.empty();
    }

    // deprecated, but the overload that GenericContainer calls on a start (Testcontainers 2.0.5)
    @Override
    @SuppressWarnings("deprecation")
    public boolean waitUntilStartupSuccessful(GenericContainer<?> container) {
        boolean started = delegate.waitUntilStartupSuccessful(container);
        if (!started) {
            told = ContainerStartFailure.describe(fieldName, container);
        }
        return started;
    }

    @Override
    public boolean waitUntilStartupSuccessful(DockerClient client, String containerId) {
        return delegate.waitUntilStartupSuccessful(client, containerId);
    }

    @Override
    public StartupStatus checkStartupState(DockerClient client, String containerId) {
        return delegate.checkStartupState(client, containerId);
    }
}
