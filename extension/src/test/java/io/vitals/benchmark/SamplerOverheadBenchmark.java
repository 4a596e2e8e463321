package io.vitals.benchmark;

import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.Probes;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.testcontainers.lifecycle.Startables;

/**
 * What sampling costs: the sampler thread's own CPU time (host cgroup probe) at 10 ms, 50 ms and 1 s, for 1 and 20
 * idle containers, next to what {@code docker stats} (streaming the same containers over the same period) costs
 * dockerd, containerd, the containers' shims and the CLI itself. Also times single reads of the host probe and the
 * Engine API probe. Not a test: run it by hand and copy the tables into docs/benchmarks.md.
 *
 * <pre>
 * source examples/setup/testcontainers-env.sh
 * mvn -q -pl extension test-compile exec:java -Dexec.mainClass=io.vitals.benchmark.SamplerOverheadBenchmark \
 *     -Dexec.classpathScope=test [-Dexec.args="10"]      # seconds per configuration
 * </pre>
 *
 * <p>Approach: the sampler is one named daemon thread, so {@link ThreadMXBean#getThreadCpuTime(long)} of that
 * thread is exactly its cost (user + system, nanosecond precision). Other processes are measured from
 * {@code /proc/<pid>/stat} utime + stime (clock ticks of 10 ms). The sampler and the docker stats CLI run at the
 * same time, so each slows the other a little; dockerd also serves whatever else uses the engine then (a
 * baseline period with neither is printed to show that noise).
 */
public final class SamplerOverheadBenchmark {

    private static final long TICK_NANOS = 10_000_000L; // USER_HZ = 100
    private static final String THREAD_NAME = "vitals-bench";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SamplerOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Duration period = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 10);
        List<String> rows = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        for (int count : new int[] {1, 20}) {
            List<StressContainer> containers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                containers.add(new StressContainer());
            }
            try {
                Startables.deepStart(containers.stream()).join();
                rows.add(baseline(containers, period));
                for (Duration interval : List.of(Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(1))) {
                    rows.add(measure(containers, interval, period));
                }
                if (count == 1) {
                    reads.add(timeReads(containers.get(0), ProbeMode.HOST_CGROUP, 1000));
                    reads.add(timeReads(containers.get(0), ProbeMode.ENGINE_API, 30));
                }
            } finally {
                containers.forEach(StressContainer::stop);
            }
        }
        System.out.printf(Locale.ROOT, "%n%d CPUs, %s per configuration%n%n", Runtime.getRuntime().availableProcessors(),
                period);
        System.out.println("| containers | interval | samples/s achieved | sampler CPU per container-sample "
                + "| sampler CPU (% of a core) | docker stats CPU per container-sample "
                + "| docker stats CPU (% of a core): dockerd + containerd + shims + CLI |");
        System.out.println("|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.println();
        System.out.println("| probe | reads | median per read | mean per read | caller CPU per read |");
        System.out.println("|---|---|---|---|---|");
        reads.forEach(System.out::println);
    }

    /** Neither sampler nor docker stats: what dockerd, containerd and the shims cost anyway. */
    private static String baseline(List<StressContainer> containers, Duration period) throws Exception {
        EngineCost engine = EngineCost.start(containers, null);
        Thread.sleep(period.toMillis());
        double seconds = period.toNanos() / 1e9;
        return String.format(Locale.ROOT, "| %d | none (baseline) | – | – | – | – | %s |", containers.size(),
                engine.stop().describe(seconds));
    }

    private static String measure(List<StressContainer> containers, Duration interval, Duration period)
            throws Exception {
        List<String> ids = containers.stream().map(StressContainer::getContainerId).toList();
        Process stats = new ProcessBuilder(Stream.concat(Stream.of("docker", "stats", "--format", "{{json .}}"),
                ids.stream()).toList()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Sampler sampler = new Sampler(THREAD_NAME);
        List<ContainerWatch> watches = new ArrayList<>();
        List<MeasurementWindow> windows = new ArrayList<>();
        try {
            Thread.sleep(1000); // the CLI's start-up is not part of its steady cost
            for (StressContainer container : containers) {
                watches.add(Probes.watch(container, ProbeMode.HOST_CGROUP, interval, sampler));
            }
            long samplerThread = samplerThreadId();
            // a window per container, as in a test; its start and end readings are taken on this thread
            for (ContainerWatch watch : watches) {
                windows.add(watch.openWindow());
            }
            EngineCost engine = EngineCost.start(containers, stats.pid());
            long samplerCpuBefore = THREADS.getThreadCpuTime(samplerThread);
            long wallBefore = System.nanoTime();
            Thread.sleep(period.toMillis());
            long samplerCpu = THREADS.getThreadCpuTime(samplerThread) - samplerCpuBefore;
            double seconds = (System.nanoTime() - wallBefore) / 1e9;
            EngineCost.Result dockerCost = engine.stop();
            long samples = 0;
            for (MeasurementWindow window : windows) {
                ResourceUsage usage = window.close();
                samples += usage.timeline().samples() - 2; // minus the window's own start and end readings
            }
            double containerSamplesDocker = containers.size() * seconds; // docker stats: one per container a second
            return String.format(Locale.ROOT, "| %d | %s | %.0f | %s | %.2f %% | %s | %s |", containers.size(),
                    describe(interval), samples / seconds, micros(samplerCpu / (double) samples),
                    100 * samplerCpu / 1e9 / seconds, micros(dockerCost.totalNanos() / containerSamplesDocker),
                    dockerCost.describe(seconds));
        } finally {
            watches.forEach(ContainerWatch::close);
            sampler.close();
            stats.destroyForcibly(); // the docker CLI catches SIGTERM and keeps streaming
            stats.waitFor();
        }
    }

    private static String timeReads(StressContainer container, ProbeMode mode, int reads) throws ProbeException {
        try (ResourceProbe probe = Probes.open(container, mode)) {
            probe.read(); // warm-up: class loading, first connection
            long[] nanos = new long[reads];
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < reads; i++) {
                long start = System.nanoTime();
                probe.read();
                nanos[i] = System.nanoTime() - start;
            }
            long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
            Arrays.sort(nanos);
            double mean = Arrays.stream(nanos).average().orElse(0);
            return String.format(Locale.ROOT, "| %s (%s) | %d | %s | %s | %s |", probe.kind(), probe.describe(),
                    reads, micros(nanos[reads / 2]), micros(mean), micros(cpu / (double) reads));
        }
    }

    private static long samplerThreadId() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(THREAD_NAME + "-")).mapToLong(Thread::getId)
                .findFirst().orElseThrow(() -> new IllegalStateException("No thread named " + THREAD_NAME + "-N"));
    }

    private static String describe(Duration interval) {
        return interval.toMillis() >= 1000 ? interval.toSeconds() + " s" : interval.toMillis() + " ms";
    }

    private static String micros(double nanos) {
        return nanos >= 1e6 ? String.format(Locale.ROOT, "%.2f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }

    /** CPU time (utime + stime) of dockerd, its containerd, the containers' shims and the docker stats CLI. */
    private record EngineCost(long[] pids, long[] before) {

        static EngineCost start(List<StressContainer> containers, Long cliPid) throws IOException {
            List<Long> pids = new ArrayList<>();
            long dockerd = Long.parseLong(Files.readString(Path.of("/var/run/docker.pid")).strip());
            pids.add(dockerd);
            pids.add(childNamed(dockerd, "containerd"));
            for (StressContainer container : containers) {
                pids.add(shimOf(container.getContainerId()));
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

        /** The containerd-shim-runc-v2 process of a container: its command line names the container ID. */
        private static long shimOf(String containerId) throws IOException {
            try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                        .filter(p -> read(p.resolve("comm")).startsWith("containerd-shim"))
                        .filter(p -> read(p.resolve("cmdline")).contains(containerId))
                        .mapToLong(p -> Long.parseLong(p.getFileName().toString())).findFirst()
                        .orElseThrow(() -> new IllegalStateException("No shim for container " + containerId));
            }
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
}
