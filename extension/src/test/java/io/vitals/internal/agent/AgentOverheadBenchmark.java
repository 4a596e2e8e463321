package io.vitals.internal.agent;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.SecondEngine;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * What the Vitals agent costs, against an engine the host probe is not given (the second engine,
 * {@code tcp://127.0.0.1:23750}, examples/setup/second-engine.sh): its start with the image present, step by step;
 * its CPU per container-sample beside the host probe's on the same containers; the bytes one sample puts on the
 * wire; and what the test JVM spends per agent sample. Not a test: run it by hand; it prints tables and one
 * {@code name=value} line per figure, and asserts nothing.
 *
 * <pre>
 * java -cp $CP io.vitals.internal.agent.AgentOverheadBenchmark [starts=5] [containers=20] [seconds=20] [idle|busy]
 * </pre>
 *
 * <p>Approach. <b>Start</b>: a new {@link EngineAgent} per start, timed by {@link EngineAgent#startTime()} from
 * the first open to the agent's first answer, each step as {@link AgentContainer.StartSteps} records it.
 * <b>Agent CPU</b>: the agent container's own {@code cpuacct.usage} (its cgroup on this host, found from its host
 * PID, so its JVM's every thread, GC and JIT included), over the samples its windows counted. <b>Host probe
 * CPU</b>: the same containers watched in-process with the host cgroup probe, the sampler thread's CPU time
 * ({@link ThreadMXBean}) over its samples, as {@code SamplerOverheadBenchmark} measures it. <b>Test JVM side</b>:
 * the sampler thread (which writes each request and decodes each answer), the thread pumping the attach stream,
 * and the whole process's CPU time, over the agent's samples. <b>Bytes</b>: from the protocol, for a real reading
 * of one of the containers: the request, the engine's 8-byte attach frame header and the answer (the agent writes
 * one frame per answer, and one for a tick's whole batch), alone and in a batch of all the containers. Both
 * probes run 3 s of warm-up before the measured period.
 *
 * <p>Containers run {@code vitals/stress:latest} with {@code --network none} (the second engine has no bridge
 * networking), labelled {@code io.vitals.managed=true}, and are removed at the end or by a shutdown hook.
 */
public final class AgentOverheadBenchmark {

    private static final SecondEngine ENGINE = new SecondEngine(System.getProperty("vitals.bench.engine",
            "tcp://127.0.0.1:23750"));
    private static final String IMAGE = "vitals/stress:latest";
    private static final Duration INTERVAL = Duration.ofMillis(50);
    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final String SAMPLER_THREAD = "vitals-agent-bench";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final List<String> IDLE = List.of("sleep", "infinity");
    private static final List<String> BUSY = List.of("stress-ng", "--timer", "1", "--timer-freq", "100",
            "--quiet");

    private AgentOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int starts = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Duration period = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 20);
        boolean busy = args.length > 3 && args[3].equals("busy");
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> figures = new LinkedHashMap<>();
        List<String> ids = new ArrayList<>();
        Thread cleanup = new Thread(() -> remove(ids));
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (DockerHttpClient http = client(); DockerHttpClient stream = client()) {
            for (int i = 0; i < count; i++) {
                List<String> command = new ArrayList<>(List.of("run", "-d", "--rm", "--network", "none", "--label",
                        "io.vitals.managed=true", "--label", "io.vitals.bench=" + run, IMAGE));
                command.addAll(busy ? BUSY : IDLE);
                ids.add(docker(command.toArray(String[]::new)));
            }
            List<ContainerTarget> targets = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                targets.add(new ContainerTarget(ids.get(i), "c" + i, IMAGE, hostPid(ids.get(i)),
                        OptionalLong.empty()));
            }
            List<String> startRows = starts(starts, targets.get(0), http, stream, figures);
            String suffix = busy ? "_busy" : "";
            String agentRow;
            String bytesRows;
            try (EngineAgent agent = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                    Clock.systemUTC())) {
                List<ResourceProbe> probes = new ArrayList<>();
                for (ContainerTarget target : targets) {
                    probes.add(agent.open(target));
                }
                Path usage = cpuacctUsage(hostPid(agent.containerId().orElseThrow()));
                LongSupplier agentCpu = () -> readLong(usage);
                bytesRows = bytes(probes.get(0), probes.size(), figures);
                agentRow = measure("agent", probes, period, agentCpu, figures, suffix); // closes the probes
            }
            ProbeFactory host = ProbeFactory.forThisHost(() -> http);
            List<ResourceProbe> hostProbes = new ArrayList<>();
            for (ContainerTarget target : targets) {
                hostProbes.add(host.open(target, ProbeMode.HOST_CGROUP));
            }
            String hostRow = measure("host", hostProbes, period, null, figures, suffix); // closes the probes
            figures.put("agent_over_host_cpu_per_container_sample" + suffix, String.format(Locale.ROOT, "%.2f",
                    Double.parseDouble(figures.get("agent_container_us_per_container_sample" + suffix))
                            / Double.parseDouble(figures.get("host_sampler_us_per_container_sample" + suffix))));

            System.out.printf(Locale.ROOT, "%n%d CPUs, engine %s, %d %s containers, %s per probe at %d ms%n%n",
                    Runtime.getRuntime().availableProcessors(), ENGINE.host(), count, busy ? "busy" : "idle", period,
                    INTERVAL.toMillis());
            System.out.println("| start | total | jar (bytes) | create | jar wait | copy | attach | start call "
                    + "| first answer |");
            System.out.println("|---|---|---|---|---|---|---|---|---|");
            startRows.forEach(System.out::println);
            System.out.println();
            System.out.println("| probe | samples/s | CPU per container-sample (measured where) "
                    + "| test JVM: sampler thread | test JVM: stream pump thread | test JVM: whole process |");
            System.out.println("|---|---|---|---|---|---|");
            System.out.println(agentRow);
            System.out.println(hostRow);
            System.out.println();
            System.out.println("| read | request | frame header | answer | on the wire per sample |");
            System.out.println("|---|---|---|---|---|");
            System.out.println(bytesRows);
            System.out.println();
            figures.forEach((name, value) -> System.out.println(name + "=" + value));
        } finally {
            remove(ids);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** {@code n} agents started one after the other, each opened on {@code target} and closed again. */
    private static List<String> starts(int n, ContainerTarget target, DockerHttpClient http, DockerHttpClient stream,
            Map<String, String> figures) throws ProbeException {
        List<String> rows = new ArrayList<>();
        long[] totals = new long[n];
        for (int i = 0; i < n; i++) {
            try (EngineAgent agent = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                    Clock.systemUTC())) {
                agent.open(target).close();
                Duration total = agent.startTime().orElseThrow();
                AgentContainer.StartSteps steps = agent.startSteps().orElseThrow();
                totals[i] = total.toNanos();
                rows.add(String.format(Locale.ROOT, "| %d | %d ms | %d ms (%,d) | %d ms | %d ms | %d ms | %d ms "
                        + "| %d ms | %d ms |", i + 1, total.toMillis(), steps.jar().toMillis(), steps.jarBytes(),
                        steps.create().toMillis(), steps.jarWait().toMillis(), steps.copy().toMillis(), steps.attach().toMillis(),
                        steps.start().toMillis(), steps.firstAnswer().toMillis()));
                figures.put("agent_start_ms_" + (i + 1), Long.toString(total.toMillis()));
                figures.put("agent_jar_bytes", Integer.toString(steps.jarBytes()));
            }
        }
        long[] sorted = totals.clone();
        Arrays.sort(sorted);
        figures.put("agent_start_ms_median", Long.toString(sorted[n / 2] / 1_000_000));
        figures.put("agent_start_ms_max", Long.toString(sorted[n - 1] / 1_000_000));
        return rows;
    }

    /**
     * Every probe watched at 50 ms on one sampler, a window open on each; CPU over the period. The watches close
     * the probes at the end. {@code agentCpu}
     * is the agent container's counter, null for the host probe (which costs the sampler thread alone).
     */
    private static String measure(String name, List<ResourceProbe> probes, Duration period, LongSupplier agentCpu,
            Map<String, String> figures, String suffix) throws Exception {
        Sampler sampler = new Sampler(SAMPLER_THREAD + "-" + name);
        List<ContainerWatch> watches = new ArrayList<>();
        List<MeasurementWindow> windows = new ArrayList<>();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (ResourceProbe probe : probes) {
                watches.add(ContainerWatch.start("bench", IMAGE, probe, INTERVAL, sampler));
            }
            Thread.sleep(WARM_UP.toMillis());
            for (ContainerWatch watch : watches) {
                windows.add(watch.openWindow());
            }
            long samplerThread = threadId(SAMPLER_THREAD + "-" + name + "-");
            long pumpThread = agentCpu == null ? -1 : threadId("vitals-agent-stream");
            long samplerBefore = THREADS.getThreadCpuTime(samplerThread);
            long pumpBefore = pumpThread < 0 ? 0 : THREADS.getThreadCpuTime(pumpThread);
            long processBefore = os.getProcessCpuTime();
            long agentBefore = agentCpu == null ? 0 : agentCpu.getAsLong();
            long wallBefore = System.nanoTime();
            Thread.sleep(period.toMillis());
            long samplerCpu = THREADS.getThreadCpuTime(samplerThread) - samplerBefore;
            long pumpCpu = pumpThread < 0 ? 0 : THREADS.getThreadCpuTime(pumpThread) - pumpBefore;
            long processCpu = os.getProcessCpuTime() - processBefore;
            long agentSpent = agentCpu == null ? 0 : agentCpu.getAsLong() - agentBefore;
            double seconds = (System.nanoTime() - wallBefore) / 1e9;
            long samples = 0;
            for (MeasurementWindow window : windows) {
                ResourceUsage usage = window.close();
                samples += usage.timeline().samples() - 2; // minus the window's own start and end readings
            }
            double perSample = (agentCpu == null ? samplerCpu : agentSpent) / (double) samples;
            String where = agentCpu == null ? "the sampler thread, in-process" : "the agent container's cpuacct.usage";
            String key = agentCpu == null ? "host_sampler" : "agent_container";
            figures.put(key + "_us_per_container_sample" + suffix, us(perSample));
            figures.put(name + "_samples_per_second" + suffix, String.format(Locale.ROOT, "%.0f", samples / seconds));
            if (agentCpu != null) {
                figures.put("agent_container_core_percent" + suffix, String.format(Locale.ROOT, "%.2f",
                        100 * agentSpent / 1e9 / seconds));
                figures.put("agent_jvm_sampler_us_per_sample" + suffix, us(samplerCpu / (double) samples));
                figures.put("agent_jvm_pump_us_per_sample" + suffix, us(pumpCpu / (double) samples));
                figures.put("agent_jvm_process_us_per_sample" + suffix, us(processCpu / (double) samples));
            } else {
                figures.put("host_jvm_process_us_per_sample" + suffix, us(processCpu / (double) samples));
            }
            return String.format(Locale.ROOT, "| %s | %.0f | %s (%s; %.2f %% of a core) | %s | %s | %s |", name,
                    samples / seconds, micros(perSample), where,
                    100 * (agentCpu == null ? samplerCpu : agentSpent) / 1e9 / seconds,
                    micros(samplerCpu / (double) samples), agentCpu == null ? "–" : micros(pumpCpu / (double) samples),
                    micros(processCpu / (double) samples));
        } finally {
            watches.forEach(ContainerWatch::close);
            sampler.close();
        }
    }

    /**
     * The bytes of one fast and one full sample, for a real reading of {@code probe}'s container: alone (one
     * round trip: a window's edge, a container read by itself) and as one of a tick's batch of {@code batch}
     * (the request's 5-byte head and the frame header shared by the batch's members).
     */
    private static String bytes(ResourceProbe probe, int batch, Map<String, String> figures) throws Exception {
        RawReading reading = probe.read();
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        AgentProtocol.writeFull(new DataOutputStream(full), reading);
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        AgentProtocol.writeFast(new DataOutputStream(fast), reading);
        int request = 1 + 4; // op and watch id; in a batch, each member's op and id after the batch's op and count
        int frame = 8; // the engine's multiplexed stream header, one per answer (one per batch)
        int fastAnswer = 1 + fast.size();
        int fullAnswer = 1 + full.size();
        double shared = (request + frame) / (double) batch;
        figures.put("wire_bytes_per_fast_sample", Integer.toString(request + frame + fastAnswer));
        figures.put("wire_bytes_per_full_sample", Integer.toString(request + frame + fullAnswer));
        figures.put("wire_bytes_per_batched_fast_sample", String.format(Locale.ROOT, "%.1f",
                request + shared + fastAnswer));
        figures.put("wire_bytes_per_batched_full_sample", String.format(Locale.ROOT, "%.1f",
                request + shared + fullAnswer));
        return String.format(Locale.ROOT, "| fast, alone | %d B | %d B | %d B | **%d B** |%n"
                + "| fast, in a batch of %d | %d + %.2f B | %.2f B | %d B | **%.1f B** |%n"
                + "| full, alone | %d B | %d B | %d B | **%d B** |%n"
                + "| full, in a batch of %d | %d + %.2f B | %.2f B | %d B | **%.1f B** |",
                request, frame, fastAnswer, request + frame + fastAnswer,
                batch, request, request / (double) batch, frame / (double) batch, fastAnswer,
                request + shared + fastAnswer,
                request, frame, fullAnswer, request + frame + fullAnswer,
                batch, request, request / (double) batch, frame / (double) batch, fullAnswer,
                request + shared + fullAnswer);
    }

    private static long threadId(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix))
                .mapToLong(Thread::getId).findFirst()
                .orElseThrow(() -> new IllegalStateException("No thread named " + prefix + "..."));
    }

    /** The cpuacct.usage file of the cgroup host PID {@code pid} is in (cgroup v1, as on this host). */
    private static Path cpuacctUsage(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
            String[] parts = line.split(":", 3);
            if (Arrays.asList(parts[1].split(",")).contains("cpuacct")) {
                return Path.of("/sys/fs/cgroup/cpuacct" + parts[2], "cpuacct.usage");
            }
        }
        throw new IOException("No cpuacct cgroup for PID " + pid + ": this benchmark reads cgroup v1");
    }

    private static long readLong(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + file, e);
        }
    }

    private static long hostPid(String id) throws IOException, InterruptedException {
        return Long.parseLong(docker("inspect", "--format", "{{.State.Pid}}", id));
    }

    private static DockerHttpClient client() {
        return ENGINE.client();
    }

    private static void remove(List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("rm", "-f"));
        command.addAll(ids);
        try {
            docker(command.toArray(String[]::new));
            ids.clear();
        } catch (Exception e) {
            System.err.println("Could not remove the benchmark's containers " + ids + ": " + e);
        }
    }

    private static String docker(String... args) throws IOException, InterruptedException {
        return ENGINE.cli(args).strip();
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    private static String micros(double nanos) {
        return nanos >= 1e6 ? String.format(Locale.ROOT, "%.2f ms", nanos / 1e6)
                : String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
    }
}
