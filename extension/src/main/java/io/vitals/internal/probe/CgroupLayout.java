package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * Where one container's cgroup files live on the host.
 *
 * @param unifiedOnly true on a pure cgroup v2 host; false on v1 and hybrid hosts
 * @param v1Controllers the directory of each v1 controller ({@code memory}, {@code cpu}, {@code cpuacct},
 *     {@code blkio}, {@code pids}); empty on a v2 host
 * @param unifiedDir the container's directory in the v2 hierarchy: all figures on a v2 host, only the pressure
 *     files on a hybrid host (where no controller is bound to it)
 */
@API(status = INTERNAL, since = "0.1")
public record CgroupLayout(boolean unifiedOnly, Map<String, Path> v1Controllers, Optional<Path> unifiedDir) {

    public CgroupLayout {
        v1Controllers = Map.copyOf(v1Controllers);
    }

    Optional<Path> controller(String name) {
        return Optional.ofNullable(v1Controllers.get(name));
    }

    /**
     * The engine that made the cgroup: Podman names its scopes {@code libpod-<id>.scope} (and its cgroupfs parent
     * {@code libpod_parent}); everything else is taken for Docker, whose paths name {@code docker}.
     */
    public String engine() {
        boolean podman = Stream.concat(v1Controllers.values().stream(), unifiedDir.stream())
                .anyMatch(dir -> dir.toString().contains("libpod"));
        return podman ? "podman" : "docker";
    }

    public String describe() {
        if (unifiedOnly) {
            return "cgroup v2 files under " + unifiedDir.map(Path::toString).orElse("?");
        }
        Path memory = v1Controllers.get("memory");
        return "cgroup v1 files under " + (memory == null ? "?" : memory.getParent().getParent())
                + unifiedDir.map(dir -> " (pressure from the v2 hierarchy)").orElse("");
    }
}
