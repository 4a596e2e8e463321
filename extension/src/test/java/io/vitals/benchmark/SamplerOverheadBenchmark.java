package io.vitals.benchmark;

import io.vitals.ResourceUsage;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * What sampling costs: the sampler thread's own CPU time (host cgroup probe, tiered reads) for 1, 20 and 100 idle
 * containers, next to what {@code docker stats} (streaming the same containers over the same period, in the same
 * run) costs dockerd, containerd, the containers' shims and the CLI itself. Also times single full and fast reads
 * of the host probe. Not a test: run it by hand; it prints a table and one {@code name=value} line per figure, so
 * that two runs can be compared line by line.
 *
 * <pre>
 * source examples/setup/testcontainers-env.sh
 * mvn -o -q -pl extension test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
 *     -Dmdep.includeScope=test
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.benchmark.SamplerOverheadBenchmark [seconds=20] [containers=1,20,100] [intervals-ms=50] [idle|busy]
 * </pre>
 *
 * <p>{@code idle} containers (the default) sleep; {@code busy} ones run {@code stress-ng --timer 1 --timer-freq 100},
 * a worker woken 100 times a second (about 0.5 % of a core each here), so that their CPU time moves between any two
 * ticks and every tick reads all four fast counters, where an idle container's tick reads only its CPU time (see
 * {@code CgroupStatsReader#readFast}). {@code --cpu-load 1} would not do: its worker sleeps for whole seconds.
 * The figures of a busy run carry a {@code _busy} suffix.
 *
 * <p>Approach: the sampler is one named daemon thread, so {@link ThreadMXBean#getThreadCpuTime(long)} of that
 * thread is exactly its cost (user + system, nanosecond precision). Other processes are measured from
 * {@code /proc/<pid>/stat} utime + stime (clock ticks of 10 ms). The sampler and the docker stats CLI run at the
 * same time, so each slows the other a little; dockerd also serves whatever else uses the engine then (a
 * baseline period with neither is printed to show that noise). Sampling runs 3 s before the measured period
 * starts, so that the figures are those of a suite that has been running (JIT-compiled read path). Containers are started with the docker CLI
 * (labelled {@code io.vitals.managed=true} and {@code io.vitals.bench=<run>}) and removed when their
 * configurations are done, or by a shutdown hook.
 */
public final class SamplerOverheadBenchmark {

    private static final String THREAD_NAME = "vitals-bench";
    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final List<String> IDLE = List.of("sleep", "infinity");
    private static final List<String> BUSY = List.of("stress-ng", "--timer", "1", "--timer-freq", "100",
            "--quiet");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SamplerOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Duration period = Duration.ofSeconds(args.length > 0 ? Long.parseLong(args[0]) : 20);
        int[] counts = Arrays.stream((args.length > 1 ? args[1] : "1,20,100").split(",")).mapToInt(Integer::parseInt)
                .toArray();
        List<Duration> intervals = Arrays.stream((args.length > 2 ? args[2] : "50").split(","))
                .map(ms -> Duration.ofMillis(Long.parseLong(ms))).toList();
        boolean busy = args.length > 3 && args[3].equals("busy");
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> rows = new ArrayList<>();
        List<String> reads = new ArrayList<>();
        Map<String, String> figures = new LinkedHashMap<>();
        for (int count : counts) {
            List<BenchContainer> containers = BenchContainer.start(count, run, busy ? BUSY : IDLE);
            try {
                rows.add(baseline(containers, period.compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5)
                        : period));
                for (Duration interval : intervals) {
                    rows.add(measure(containers, interval, period, figures));
                }
                if (count == 1) {
                    reads.addAll(timeReads(containers.get(0), 2000, figures));
                }
            } finally {
                BenchContainer.remove(containers);
            }
        }
        // the headline figures: the largest configuration at the default interval (or the first one asked for)
        Duration headline = intervals.contains(Duration.ofMillis(50)) ? Duration.ofMillis(50) : intervals.get(0);
        String key = counts[counts.length - 1] + "_containers_" + describeKey(headline);
        if (busy) {
            Map<String, String> suffixed = new LinkedHashMap<>();
            figures.forEach((name, value) -> suffixed.put(name + "_busy", value));
            figures.clear();
            figures.putAll(suffixed);
            key = key + "_busy";
        }
        String suffix = busy ? "_busy" : "";
        figures.put("sampler_us_per_container_sample" + suffix,
                figures.get("sampler_us_per_container_sample_" + key));
        figures.put("docker_stats_us_per_container_sample" + suffix,
                figures.get("docker_stats_us_per_container_sample_" + key));
        figures.put("docker_stats_over_sampler_cost_ratio" + suffix, String.format(Locale.ROOT, "%.0f",
                Double.parseDouble(figures.get("docker_stats_us_per_container_sample" + suffix))
                        / Double.parseDouble(figures.get("sampler_us_per_container_sample" + suffix))));

        System.out.printf(Locale.ROOT, "%n%d CPUs, %s per configuration%n%n", Runtime.getRuntime().availableProcessors(),
                period);
        System.out.println("| containers | interval | samples/s requested | samples/s achieved "
                + "| sampler CPU per container-sample | sampler CPU (% of a core) "
                + "| docker stats CPU per container-sample "
                + "| docker stats CPU (% of a core): dockerd + containerd + shims + CLI |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.println();
        System.out.println("| probe read | reads | median per read | mean per read | caller CPU per read |");
        System.out.println("|---|---|---|---|---|");
        reads.forEach(System.out::println);
        System.out.println();
        figures.forEach((name, value) -> System.out.println(name + "=" + value));
    }

    /** Neither sampler nor docker stats: what dockerd, containerd and the shims cost anyway. */
    private static String baseline(List<BenchContainer> containers, Duration period) throws Exception {
        EngineCost engine = EngineCost.start(containers, null);
        Thread.sleep(period.toMillis());
        double seconds = period.toNanos() / 1e9;
        return String.format(Locale.ROOT, "| %d | none (baseline, %d s) | – | – | – | – | – | %s |",
                containers.size(), period.toSeconds(), engine.stop().describe(seconds));
    }

    private static String measure(List<BenchContainer> containers, Duration interval, Duration period,
            Map<String, String> figures) throws Exception {
        List<String> ids = containers.stream().map(BenchContainer::id).toList();
        Path statsErrors = Files.createTempFile("docker-stats", ".err");
        Process stats = new ProcessBuilder(Stream.concat(Stream.of("docker", "stats", "--format", "{{json .}}"),
                ids.stream()).toList()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(statsErrors.toFile()).start();
        Sampler sampler = new Sampler(THREAD_NAME);
        List<ContainerWatch> watches = new ArrayList<>();
        List<MeasurementWindow> windows = new ArrayList<>();
        try {
            Thread.sleep(1000); // the CLI's start-up is not part of its steady cost
            for (BenchContainer container : containers) {
                watches.add(ContainerWatch.start(container.target().name(), BenchContainer.IMAGE, container.open(), interval,
                        sampler));
            }
            long samplerThread = samplerThreadId();
            // steady state, as in a suite that has run a while: the JIT has compiled the read and parse paths
            Thread.sleep(WARM_UP.toMillis());
            // a window per container, as in a test; its start and end readings are taken on this thread
            for (ContainerWatch watch : watches) {
                windows.add(watch.openWindow());
            }
            requireAlive(stats, statsErrors);
            EngineCost engine = EngineCost.start(containers, stats.pid());
            long samplerCpuBefore = THREADS.getThreadCpuTime(samplerThread);
            long wallBefore = System.nanoTime();
            Thread.sleep(period.toMillis());
            long samplerCpu = THREADS.getThreadCpuTime(samplerThread) - samplerCpuBefore;
            double seconds = (System.nanoTime() - wallBefore) / 1e9;
            requireAlive(stats, statsErrors);
            EngineCost.Result dockerCost = engine.stop();
            long samples = 0;
            for (MeasurementWindow window : windows) {
                ResourceUsage usage = window.close();
                samples += usage.timeline().samples() - 2; // minus the window's own start and end readings
            }
            double requested = containers.size() * 1e9 / interval.toNanos();
            double containerSamplesDocker = containers.size() * seconds; // docker stats: one per container a second
            double samplerPerSample = samplerCpu / (double) samples;
            double dockerPerSample = dockerCost.totalNanos() / containerSamplesDocker;
            String key = containers.size() + "_containers_" + describeKey(interval);
            figures.put("sampler_us_per_container_sample_" + key, us(samplerPerSample));
            figures.put("sampler_core_percent_" + key, String.format(Locale.ROOT, "%.2f",
                    100 * samplerCpu / 1e9 / seconds));
            figures.put("sampler_achieved_over_requested_rate_" + key, String.format(Locale.ROOT, "%.3f",
                    samples / seconds / requested));
            figures.put("docker_stats_us_per_container_sample_" + key, us(dockerPerSample));
            figures.put("docker_stats_core_percent_" + key, String.format(Locale.ROOT, "%.2f",
                    100 * dockerCost.totalNanos() / 1e9 / seconds));
            return String.format(Locale.ROOT, "| %d | %s | %.0f | %.0f | %s | %.2f %% | %s | %s |",
                    containers.size(), describe(interval), requested, samples / seconds, micros(samplerPerSample),
                    100 * samplerCpu / 1e9 / seconds, micros(dockerPerSample), dockerCost.describe(seconds));
        } finally {
            watches.forEach(ContainerWatch::close);
            sampler.close();
            stats.destroyForcibly(); // the docker CLI catches SIGTERM and keeps streaming
            stats.waitFor();
            Files.deleteIfExists(statsErrors);
        }
    }

    /**
     * A docker stats CLI that ended early would leave its share of the engine's cost uncounted, so the comparison
     * stops with the CLI's own words. Seen with 100 busy containers on 2 cores: the CLI gives up with "timeout
     * waiting for stats" when the engine takes more than its 2 s to answer for a container.
     */
    private static void requireAlive(Process stats, Path errors) throws IOException {
        if (!stats.isAlive()) {
            List<String> said = Files.readAllLines(errors);
            throw new IllegalStateException("docker stats ended early (exit " + stats.exitValue() + ")"
                    + (said.isEmpty() ? "" : ": " + said.get(0) + " (" + said.size() + " lines)")
                    + "; its cost cannot be compared in this run");
        }
    }

    /** Back-to-back full and fast reads of one container, on this thread. */
    private static List<String> timeReads(BenchContainer container, int reads, Map<String, String> figures)
            throws ProbeException {
        List<String> rows = new ArrayList<>();
        try (ResourceProbe probe = container.open()) {
            RawReading last = probe.read();
            for (String kind : List.of("full", "fast")) {
                for (int i = 0; i < 200; i++) { // warm-up: JIT
                    last = kind.equals("full") ? probe.read() : probe.readFast(last);
                }
                long[] nanos = new long[reads];
                long cpuBefore = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < reads; i++) {
                    long start = System.nanoTime();
                    if (kind.equals("full")) {
                        last = probe.read();
                    } else {
                        probe.readFast(last);
                    }
                    nanos[i] = System.nanoTime() - start;
                }
                long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
                Arrays.sort(nanos);
                double mean = Arrays.stream(nanos).average().orElse(0);
                figures.put("probe_" + kind + "_read_median_us", us(nanos[reads / 2]));
                figures.put("probe_" + kind + "_read_cpu_us", us(cpu / (double) reads));
                rows.add(String.format(Locale.ROOT, "| %s, %s | %d | %s | %s | %s |", probe.kind(), kind, reads,
                        micros(nanos[reads / 2]), micros(mean), micros(cpu / (double) reads)));
            }
        }
        return rows;
    }

    private static long samplerThreadId() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith(THREAD_NAME + "-")).mapToLong(Thread::getId)
                .findFirst().orElseThrow(() -> new IllegalStateException("No thread named " + THREAD_NAME + "-N"));
    }

    private static String describe(Duration interval) {
        return interval.toMillis() >= 1000 ? interval.toSeconds() + " s" : interval.toMillis() + " ms";
    }

    private static String describeKey(Duration interval) {
        return interval.toMillis() + "ms";
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    private static String micros(double nanos) {
        return nanos >= 1e6 ? String.format(Locale.ROOT, "%.2f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }


}
