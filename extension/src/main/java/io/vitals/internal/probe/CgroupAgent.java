package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Reads containers' cgroup files from inside the engine's host when this JVM cannot: the Vitals agent container
 * ({@code io.vitals.internal.agent}). Declared here so that {@link ProbeFactory} can try it between the host probe
 * and the Engine API without the probe package depending on the agent, which depends on the probe package.
 */
@API(status = INTERNAL, since = "0.1")
public interface CgroupAgent {

    /**
     * Opens a probe reading {@code target}'s cgroup through the agent, starting the agent first if it is not yet
     * running.
     *
     * @throws AgentUnavailableException when the agent cannot start or stopped answering, with the reason and fix
     * @throws ContainerGoneException when the container's process is gone
     * @throws ProbeException when the agent answers but cannot read the container's cgroup
     */
    ResourceProbe open(ContainerTarget target) throws ProbeException;

    /** The agent could not be started or reached: the figures must come from elsewhere, and the user be told why. */
    final class AgentUnavailableException extends ProbeException {

        private static final long serialVersionUID = 1L;

        public AgentUnavailableException(String message) {
            super(message);
        }

        public AgentUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
