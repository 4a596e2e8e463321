package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Which probe reads a container's figures; see {@link MeasureResources#probe()}. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ProbeMode {

    /**
     * The host's cgroup files when the container's cgroup is readable from here, else the Vitals agent container
     * on the container's engine (docs/agent.md), else the Engine API.
     */
    AUTO,

    /** The host's cgroup files; a container whose cgroup cannot be read fails the test. */
    HOST_CGROUP,

    /** The Docker Engine API stats endpoint, even where cgroup files could be read. */
    ENGINE_API,

    /**
     * The Vitals agent container (docs/agent.md), even where the host's cgroup files could be read; a container
     * the agent cannot read, or an agent that cannot start, fails the test.
     */
    AGENT
}
