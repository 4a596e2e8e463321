package io.vitals.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/** CPU time (utime + stime) of dockerd, its containerd, the containers' shims and the docker stats CLI. */
record EngineCost(long[] pids, long[] before) {

    private static final long TICK_NANOS = 10_000_000L; // USER_HZ = 100

    static EngineCost start(List<BenchContainer> containers, Long cliPid) throws IOException {
        List<Long> pids = new ArrayList<>();
        long dockerd = Long.parseLong(Files.readString(Path.of("/var/run/docker.pid")).strip());
        pids.add(dockerd);
        pids.add(childNamed(dockerd, "containerd"));
        Map<String, Long> shims = shims();
        for (BenchContainer container : containers) {
            Long shim = shims.get(container.id());
            if (shim == null) {
                throw new IllegalStateException("No shim for container " + container.id());
            }
            pids.add(shim);
        }
        pids.add(cliPid == null ? -1 : cliPid);
        long[] array = pids.stream().mapToLong(Long::longValue).toArray();
        return new EngineCost(array, ticks(array));
    }

    Result stop() throws IOException {
        long[] after = ticks(pids);
        long dockerd = (after[0] - before[0]) * TICK_NANOS;
        long containerd = (after[1] - before[1]) * TICK_NANOS;
        long shims = 0;
        for (int i = 2; i < pids.length - 1; i++) {
            shims += (after[i] - before[i]) * TICK_NANOS;
        }
        long cli = (after[pids.length - 1] - before[pids.length - 1]) * TICK_NANOS;
        return new Result(dockerd, containerd, shims, cli);
    }

    record Result(long dockerdNanos, long containerdNanos, long shimNanos, long cliNanos) {
        long totalNanos() {
            return dockerdNanos + containerdNanos + shimNanos + cliNanos;
        }

        String describe(double seconds) {
            return String.format(Locale.ROOT, "%.2f %% (%.2f + %.2f + %.2f + %.2f)", pct(totalNanos(), seconds),
                    pct(dockerdNanos, seconds), pct(containerdNanos, seconds), pct(shimNanos, seconds),
                    pct(cliNanos, seconds));
        }

        private static double pct(long nanos, double seconds) {
            return 100 * nanos / 1e9 / seconds;
        }
    }

    private static long[] ticks(long[] pids) throws IOException {
        long[] ticks = new long[pids.length];
        for (int i = 0; i < pids.length; i++) {
            ticks[i] = pids[i] < 0 ? 0 : cpuTicks(pids[i]);
        }
        return ticks;
    }

    /** utime + stime, fields 14 and 15 of /proc/PID/stat, counted after the ")" that ends the command name. */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long childNamed(long parent, String comm) throws IOException {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .filter(p -> comm.equals(read(p.resolve("comm")).strip()))
                    .filter(p -> parentOf(p) == parent)
                    .mapToLong(p -> Long.parseLong(p.getFileName().toString())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("No " + comm + " child of dockerd " + parent));
        }
    }

    /** The containerd-shim-runc-v2 process of each container, by ID: its command line names the container. */
    private static Map<String, Long> shims() throws IOException {
        Map<String, Long> byId = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .filter(p -> read(p.resolve("comm")).startsWith("containerd-shim"))
                    .forEach(p -> {
                        String cmdline = read(p.resolve("cmdline"));
                        int at = cmdline.indexOf("-id\0");
                        if (at >= 0) {
                            String id = cmdline.substring(at + 4).split("\0")[0];
                            byId.put(id, Long.parseLong(p.getFileName().toString()));
                        }
                    });
        }
        return byId;
    }

    private static long parentOf(Path proc) {
        String stat = read(proc.resolve("stat"));
        return stat.isEmpty() ? -1 : Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return ""; // the process ended while we looked: not the one we want
        }
    }
}
