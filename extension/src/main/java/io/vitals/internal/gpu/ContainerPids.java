package io.vitals.internal.gpu;

import io.vitals.internal.probe.CgroupLayout;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The host PIDs of a container's processes: those in its cgroup's {@code cgroup.procs}, in the v2 unified directory
 * or, on v1, under the pids (else the memory) controller, and in any cgroups below it. The cgroup directory is
 * found once per container, as the host probe finds it; the PIDs are read on every sample, since processes come
 * and go.
 */
final class ContainerPids {

    private final CgroupLocator locator;
    private final Map<String, Path> directories = new ConcurrentHashMap<>();

    ContainerPids(CgroupLocator locator) {
        this.locator = locator;
    }

    Set<Long> of(ContainerTarget target) throws ProbeException {
        Path dir = directories.get(target.id());
        if (dir == null) {
            dir = directoryOf(locator.locate(target.hostPid()), target);
            directories.put(target.id(), dir);
        }
        return read(dir, target);
    }

    private static Path directoryOf(CgroupLayout layout, ContainerTarget target) throws ProbeException {
        Optional<Path> dir = layout.unifiedOnly() ? layout.unifiedDir()
                : Optional.ofNullable(layout.v1Controllers().get("pids"))
                        .or(() -> Optional.ofNullable(layout.v1Controllers().get("memory")));
        return dir.orElseThrow(() -> new ProbeException("No cgroup directory with cgroup.procs for container '"
                + target.name() + "'"));
    }

    static Set<Long> read(Path dir, ContainerTarget target) throws ProbeException {
        Set<Long> pids = new HashSet<>();
        try (Stream<Path> files = Files.walk(dir, 4)) {
            for (Path procs : files.filter(p -> p.getFileName().toString().equals("cgroup.procs")).toList()) {
                for (String line : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
                    if (!line.isBlank()) {
                        pids.add(Long.parseLong(line.strip()));
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new ProbeException("Cannot read the processes of container '" + target.name() + "' under " + dir
                    + " (GPU figures need the engine on this host): " + e.getMessage(), e);
        }
        return pids;
    }
}
