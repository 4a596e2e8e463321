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
    ENGINE_API("Docker Engine API");

    private final String description;

    ProbeKind(String description) {
        this.description = description;
    }

    /** {@return a short phrase for messages and reports, e.g. "host cgroup v1 files"} */
    public String description() {
        return description;
    }
}
