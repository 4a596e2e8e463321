package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Where a container's figures came from; every report names it, since it decides how exact the figures are. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum ProbeKind {

    /** cgroup v1 (or hybrid) files read on the engine's host: exact counters, resettable high-water mark. */
    HOST_CGROUP_V1("host cgroup v1 files"),

    /** cgroup v2 files read on the engine's host: exact counters; per-test high-water mark from Linux 6.12. */
    HOST_CGROUP_V2("host cgroup v2 files"),

    /** The Docker Engine API stats endpoint: works with remote engines, at most one sample a second. */
    ENGINE_API("Docker Engine API"),

    /**
     * cgroup v1 (or hybrid) files of the engine's host read by the Vitals agent container (docs/agent.md), where
     * this JVM cannot see them: the host probe's readers and exactness, at the sampling interval.
     */
    AGENT_CGROUP_V1("cgroup v1 files via the Vitals agent container"),

    /** cgroup v2 files of the engine's host read by the Vitals agent container; exact as {@link #HOST_CGROUP_V2}. */
    AGENT_CGROUP_V2("cgroup v2 files via the Vitals agent container");

    private final String description;

    ProbeKind(String description) {
        this.description = description;
    }

    /**
     * The kind whose exactness rules apply: the agent reads the same files with the same readers as the host
     * probe, so its kinds answer the host kind of the same cgroup version; the others answer themselves.
     *
     * @return the host kind of the same cgroup version for an agent kind, else this kind
     */
    public ProbeKind exactnessKind() {
        return switch (this) {
            case AGENT_CGROUP_V1 -> HOST_CGROUP_V1;
            case AGENT_CGROUP_V2 -> HOST_CGROUP_V2;
            default -> this;
        };
    }

    /** {@return a short phrase for messages and reports, e.g. "host cgroup v1 files"} */
    public String description() {
        return description;
    }
}
