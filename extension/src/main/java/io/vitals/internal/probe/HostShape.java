package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The shape of host a container's figures were measured on: one row of the table "Exactness by host shape" in
 * docs/metrics.md, with the facts the row was chosen from. Derived from what the probe found (its kind, the cgroup
 * layout, whether the kernel's memory mark could be reset) and from this process (kernel release, user id), so a
 * report reader can look the row up instead of guessing which host the run had.
 *
 * @param row the row of the table
 * @param cgroup {@code "v1"} or {@code "v2"} for the host cgroup probe; empty for the Engine API, whose host
 *     this process cannot see
 * @param kernel the kernel release figures were read under; empty for the Engine API (the engine's kernel is not
 *     this process's)
 * @param root whether the tests ran as root (uid 0), which decides who may reset the kernel's marks; empty for
 *     the Engine API
 * @param engine {@code "docker"} or {@code "podman"}, from the container's cgroup path; empty for the Engine API
 * @param peakResettable whether the kernel's high-water mark of charged memory could be reset for a window, which
 *     is what makes the peak of a shared container exact
 */
@API(status = INTERNAL, since = "0.1")
public record HostShape(Row row, Optional<String> cgroup, Optional<String> kernel, Optional<Boolean> root,
        Optional<String> engine, boolean peakResettable) {

    /** The rows of the table, by their id in the reports and their name in docs/metrics.md. */
    public enum Row {
        CGROUP_V1_ROOT("cgroup-v1-root", "cgroup v1, root"),
        CGROUP_V1_NON_ROOT("cgroup-v1-nonroot", "cgroup v1, non-root"),
        // kernels before 6.12 share the 6.1 row: memory.peak is read-only there (absent before 5.19)
        CGROUP_V2_6_1_ROOT("cgroup-v2-6.1-root", "cgroup v2, kernel 6.1, root"),
        CGROUP_V2_6_1_NON_ROOT("cgroup-v2-6.1-nonroot", "cgroup v2, kernel 6.1, non-root"),
        CGROUP_V2_6_12_ROOT("cgroup-v2-6.12-root", "cgroup v2, kernel 6.12, root"),
        CGROUP_V2_6_12_NON_ROOT("cgroup-v2-6.12-nonroot", "cgroup v2, kernel 6.12, non-root"),
        PODMAN("podman", "Podman"),
        // rootless: the user's systemd delegates the cgroup, but memory.peak stays root's, so no per-window reset
        PODMAN_ROOTLESS("podman-rootless", "Podman, rootless"),
        ENGINE_API("engine-api", "remote Engine API");

        private final String id;
        private final String label;

        Row(String id, String label) {
            this.id = id;
            this.label = label;
        }

        /** The stable machine-readable id, e.g. {@code cgroup-v2-6.1-nonroot}. */
        public String id() {
            return id;
        }

        /** The row's name in docs/metrics.md, e.g. "cgroup v2, kernel 6.1, non-root". */
        public String label() {
            return label;
        }

        /** The row of an id as the reports write it. */
        public static Row ofId(String id) {
            for (Row row : values()) {
                if (row.id.equals(id)) {
                    return row;
                }
            }
            throw new IllegalArgumentException("unknown host shape '" + id + "'");
        }
    }

    /** The first kernel whose {@code memory.peak} can be reset per open file (by root): 6.12. */
    static final int RESETTABLE_PEAK_MAJOR = 6;
    static final int RESETTABLE_PEAK_MINOR = 12;

    public HostShape {
        Objects.requireNonNull(row, "row");
    }

    /** What the Engine API probe measures on: an engine this process knows nothing more of. */
    public static HostShape engineApi() {
        return new HostShape(Row.ENGINE_API, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                false);
    }

    /**
     * The shape of a host cgroup probe. On v2 the kernel picks the row; a mark that was reset proves 6.12 or later
     * even where the release cannot be parsed, and root on 6.12 whose reset failed (a read-only cgroup tree) stays
     * in the 6.12 row: the row is the host, the cells say what the test really got.
     */
    public static HostShape ofCgroup(boolean v2, String engine, boolean peakResettable, HostFacts facts) {
        Row row;
        if ("podman".equals(engine)) {
            row = facts.root() ? Row.PODMAN : Row.PODMAN_ROOTLESS;
        } else if (!v2) {
            row = facts.root() ? Row.CGROUP_V1_ROOT : Row.CGROUP_V1_NON_ROOT;
        } else if (peakResettable || facts.kernelAtLeast(RESETTABLE_PEAK_MAJOR, RESETTABLE_PEAK_MINOR)) {
            row = facts.root() ? Row.CGROUP_V2_6_12_ROOT : Row.CGROUP_V2_6_12_NON_ROOT;
        } else {
            row = facts.root() ? Row.CGROUP_V2_6_1_ROOT : Row.CGROUP_V2_6_1_NON_ROOT;
        }
        return new HostShape(row, Optional.of(v2 ? "v2" : "v1"), facts.kernelRelease(), Optional.of(facts.root()),
                Optional.of(engine), peakResettable);
    }

    public String id() {
        return row.id();
    }

    public String label() {
        return row.label();
    }
}
