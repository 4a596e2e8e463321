package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Finds a process's cgroup directories on this host: from the cgroup mounts in {@code /proc/self/mountinfo} and
 * the process's own {@code /proc/<pid>/cgroup}, which works for cgroup v1, v2 and hybrid hosts and for both the
 * cgroupfs and the systemd drivers (the driver only changes the path, which we read rather than guess).
 *
 * <p>All absolute paths are resolved under {@code hostRoot}, so tests can point it at recorded fixture trees.
 */
@API(status = INTERNAL, since = "0.1")
public final class CgroupLocator {

    private static final List<String> V1_CONTROLLERS = List.of("memory", "cpu", "cpuacct", "blkio", "pids");

    private final Path hostRoot;
    private final Optional<Path> mountsUnder;

    public CgroupLocator(Path hostRoot) {
        this(hostRoot, Optional.empty());
    }

    private CgroupLocator(Path hostRoot, Optional<Path> mountsUnder) {
        this.hostRoot = hostRoot;
        this.mountsUnder = mountsUnder;
    }

    /**
     * A locator that reads only the cgroup mounts at or below {@code mountPoint} (as this process's mountinfo names
     * it): the Vitals agent container sees the host's tree bind-mounted there, beside a {@code /sys/fs/cgroup} of
     * its own that shows only its own cgroup and must not be taken for the host's.
     */
    public static CgroupLocator mountedAt(Path hostRoot, Path mountPoint) {
        return new CgroupLocator(hostRoot, Optional.of(mountPoint));
    }

    public static CgroupLocator forThisHost() {
        return new CgroupLocator(Path.of("/"));
    }

    /** Locates the cgroup of the process {@code pid} (as the host sees it), or explains why it cannot. */
    public CgroupLayout locate(long pid) throws ProbeException {
        List<Mount> mounts = readMounts();
        Path cgroupFile = resolve("/proc/" + pid + "/cgroup");
        String membership;
        try {
            membership = Files.readString(cgroupFile, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new ContainerGoneException("Process " + pid + " no longer exists (" + cgroupFile + ")");
        } catch (IOException e) {
            throw new ProbeException("Cannot read " + cgroupFile + ": " + e.getMessage(), e);
        }
        return layoutOf(mounts, membership);
    }

    CgroupLayout layoutOf(List<Mount> mounts, String membership) throws ProbeException {
        Map<String, Path> v1 = new HashMap<>();
        Optional<Path> unified = Optional.empty();
        for (String line : membership.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split(":", 3);
            if (parts.length != 3) {
                throw new ProbeException("Unexpected line '" + line + "' in /proc/<pid>/cgroup");
            }
            String path = containerScope(parts[2].replace(" (deleted)", ""));
            if (parts[1].isEmpty()) {
                unified = mounts.stream().filter(Mount::unified).findFirst().map(m -> m.directoryOf(path));
            } else {
                for (String controller : parts[1].split(",")) {
                    if (V1_CONTROLLERS.contains(controller)) {
                        Optional<Mount> mount = mounts.stream().filter(m -> m.controllers().contains(controller))
                                .findFirst();
                        mount.ifPresent(m -> v1.put(controller, m.directoryOf(path)));
                    }
                }
            }
        }
        boolean unifiedOnly = v1.isEmpty();
        if (unifiedOnly && unified.isEmpty()) {
            throw new ProbeException("No cgroup v1 controller or cgroup v2 mount found for the process; "
                    + "is /sys/fs/cgroup mounted?");
        }
        if (!unifiedOnly && !v1.containsKey("memory")) {
            throw new ProbeException("The cgroup v1 memory controller is not mounted; found " + v1.keySet());
        }
        return new CgroupLayout(unifiedOnly, v1, unified);
    }

    /**
     * The cgroup that stands for the whole container. Podman (crun, systemd driver) puts the container's processes
     * in a child {@code container} of {@code libpod-<id>.scope} and sets the limits on the scope: read from the
     * child, the memory limit is {@code max}. Seen in the debian-13 guest (Podman 5.4): the OOM killer named
     * {@code oom_memcg=/machine.slice/libpod-<id>.scope}, {@code task_memcg=…/libpod-<id>.scope/container}. The
     * scope holds nothing else, so its counters are the container's.
     */
    static String containerScope(String path) {
        int slash = path.lastIndexOf('/');
        if (slash <= 0 || !path.substring(slash + 1).equals("container")) {
            return path;
        }
        String parent = path.substring(0, slash);
        String parentName = parent.substring(parent.lastIndexOf('/') + 1);
        return parentName.startsWith("libpod-") && parentName.endsWith(".scope") ? parent : path;
    }

    List<Mount> readMounts() throws ProbeException {
        Path mountinfo = resolve("/proc/self/mountinfo");
        try {
            List<Mount> mounts = parseMountinfo(Files.readString(mountinfo, StandardCharsets.UTF_8));
            if (mountsUnder.isEmpty()) {
                return mounts;
            }
            Path under = resolve(mountsUnder.get().toString());
            return mounts.stream().filter(m -> m.mountPoint().startsWith(under)).toList();
        } catch (IOException e) {
            throw new ProbeException("Cannot read " + mountinfo + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parses mountinfo lines: {@code id parent maj:min root mountpoint options [optional fields] - fstype source
     * superoptions}; v1 controllers are named in the super options.
     */
    List<Mount> parseMountinfo(String text) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : text.split("\n")) {
            int separator = line.indexOf(" - ");
            if (separator < 0) {
                continue;
            }
            String[] head = line.substring(0, separator).split(" ");
            String[] tail = line.substring(separator + 3).split(" ");
            if (head.length < 5 || tail.length < 3) {
                continue;
            }
            String fsType = tail[0];
            String root = unescape(head[3]);
            Path mountPoint = resolve(unescape(head[4]));
            if (fsType.equals("cgroup2")) {
                mounts.add(new Mount(root, mountPoint, List.of(), true));
            } else if (fsType.equals("cgroup")) {
                mounts.add(new Mount(root, mountPoint, List.of(tail[2].split(",")), false));
            }
        }
        return mounts;
    }

    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    private Path resolve(String absolute) {
        return hostRoot.resolve(absolute.substring(1));
    }

    /** One cgroup mount: its root inside the hierarchy, where it is mounted, and its controllers (v1). */
    record Mount(String root, Path mountPoint, List<String> controllers, boolean unified) {

        Path directoryOf(String cgroupPath) {
            String relative = cgroupPath;
            // strip the mount's root only at a path-segment boundary: root /docker must not eat /docker-ce/…
            if (!root.equals("/") && (relative.equals(root) || relative.startsWith(root + "/"))) {
                relative = relative.substring(root.length());
            }
            while (relative.startsWith("/")) {
                relative = relative.substring(1);
            }
            return relative.isEmpty() ? mountPoint : mountPoint.resolve(relative);
        }
    }
}
