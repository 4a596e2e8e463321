package io.vitals.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.testcontainers.containers.ContainerState;

/**
 * A container's cgroup counters read straight from the kernel's files, independently of the extension's probe:
 * the ground truth of the accuracy tests. It assumes the usual mounts ({@code /sys/fs/cgroup} for v2,
 * {@code /sys/fs/cgroup/<controller>} for v1) instead of parsing mountinfo as the probe does, so that a mistake
 * in the probe's way of finding the files cannot hide in both.
 *
 * @param v2 true on a pure cgroup v2 host
 * @param dir the container's v2 directory; on v1 the memory controller's directory
 * @param v1 the v1 directory of each controller (empty on v2)
 */
public record KernelCgroup(boolean v2, Path dir, Map<String, Path> v1) {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    /** True when this host runs a pure cgroup v2 hierarchy. */
    public static boolean hostIsV2() {
        return Files.exists(ROOT.resolve("cgroup.controllers"));
    }

    public static KernelCgroup of(ContainerState container) throws IOException {
        long pid = container.getContainerInfo().getState().getPidLong();
        String membership = Files.readString(Path.of("/proc/" + pid + "/cgroup"), StandardCharsets.US_ASCII);
        Map<String, String> byController = membership.lines().map(line -> line.split(":", 3))
                .collect(Collectors.toMap(parts -> parts[1], parts -> parts[2], (a, b) -> a));
        if (hostIsV2()) {
            String path = byController.get("");
            // Podman runs the processes in a child "container" of libpod-<id>.scope and sets the limits (memory.max,
            // cpu.max) on the scope, so the scope is the container's cgroup: its throttling counts there, and its
            // memory.peak covers the child's
            if (path.matches(".*/libpod-[0-9a-f]+\\.scope/container")) {
                path = path.substring(0, path.length() - "/container".length());
            }
            return new KernelCgroup(true, ROOT.resolve(path.substring(1)), Map.of());
        }
        Function<String, Path> v1Dir = controller -> byController.entrySet().stream()
                .filter(e -> Stream.of(e.getKey().split(",")).anyMatch(controller::equals)).findFirst()
                .map(e -> ROOT.resolve(controller).resolve(e.getValue().substring(1))).orElseThrow();
        Map<String, Path> v1 = Stream.of("memory", "cpu", "cpuacct", "blkio", "pids")
                .collect(Collectors.toMap(c -> c, v1Dir));
        return new KernelCgroup(false, v1.get("memory"), v1);
    }

    /** The kernel's high-water mark as a fresh reader sees it: the cgroup's lifetime mark (v1: since a reset). */
    public long memoryPeak() throws IOException {
        return v2 ? readLong(dir.resolve("memory.peak")) : readLong(v1.get("memory").resolve("memory.max_usage_in_bytes"));
    }

    /** Whether this process may reset the high-water mark for its own window (v2: Linux 6.12+ and write access). */
    public boolean peakResettableByUs() {
        if (!v2) {
            return Files.isWritable(v1.get("memory").resolve("memory.max_usage_in_bytes"));
        }
        return Files.isWritable(dir.resolve("memory.peak")) && kernelAtLeast(6, 12);
    }

    public long cpuNanos() throws IOException {
        return v2 ? keyed(dir.resolve("cpu.stat"), "usage_usec") * 1000
                : readLong(v1.get("cpuacct").resolve("cpuacct.usage"));
    }

    public long oomKills() throws IOException {
        return v2 ? keyed(dir.resolve("memory.events"), "oom_kill")
                : keyed(v1.get("memory").resolve("memory.oom_control"), "oom_kill");
    }

    public long throttledPeriods() throws IOException {
        return keyed((v2 ? dir : v1.get("cpu")).resolve("cpu.stat"), "nr_throttled");
    }

    public long pidsCurrent() throws IOException {
        return readLong((v2 ? dir : v1.get("pids")).resolve("pids.current"));
    }

    /** Bytes written to block devices: v2 io.stat wbytes, v1 blkio.throttle.io_service_bytes Write lines. */
    public long blockWriteBytes() throws IOException {
        if (v2) {
            Path file = dir.resolve("io.stat");
            if (!Files.exists(file)) {
                return 0;
            }
            return Files.readAllLines(file).stream().flatMap(line -> Stream.of(line.split(" ")))
                    .filter(field -> field.startsWith("wbytes=")).mapToLong(f -> Long.parseLong(f.substring(7)))
                    .sum();
        }
        return Files.readAllLines(v1.get("blkio").resolve("blkio.throttle.io_service_bytes")).stream()
                .map(line -> line.split(" ")).filter(f -> f.length == 3 && f[1].equals("Write"))
                .mapToLong(f -> Long.parseLong(f[2])).sum();
    }

    /** Whether the pressure-stall files exist for this cgroup (v2; on a hybrid host in the unified tree). */
    public Optional<Path> pressureFile(String resource) {
        Path file = (v2 ? dir : ROOT.resolve("unified")).resolve(resource + ".pressure");
        return Files.exists(file) ? Optional.of(file) : Optional.empty();
    }

    public static boolean kernelAtLeast(int major, int minor) {
        String[] parts = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(parts[0]);
        int mi = Integer.parseInt(parts[1]);
        return ma > major || (ma == major && mi >= minor);
    }

    private static long readLong(Path file) throws IOException {
        return Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim());
    }

    private static long keyed(Path file, String key) throws IOException {
        return Files.readAllLines(file).stream().map(line -> line.split(" ")).filter(f -> f[0].equals(key))
                .mapToLong(f -> Long.parseLong(f[1])).findFirst()
                .orElseThrow(() -> new IOException("no '" + key + "' in " + file));
    }
}
