package io.vitals.internal.sampling;

import io.vitals.ProbeMode;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.testing.DockerCli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a container-sample's CPU goes: the same reads of N idle containers (default 100) back to back, where caches
 * stay warm, and on a 50 ms timer as the sampler does them, where the kernel's cgroup code and data have gone cold
 * between ticks. Tells the cost of reading from the cost of being woken up. Not a test: run by hand after
 * {@code images.sh}; prints one {@code name=value} line per figure.
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.internal.sampling.SamplerTickBreakdown [containers=100]
 * </pre>
 */
public final class SamplerTickBreakdown {

    /** Removing a hundred containers at once takes minutes on a busy machine. */
    private static final Duration REMOVAL_TIMEOUT = Duration.ofMinutes(10);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long TICK_NANOS = 50_000_000L;
    private static final int TICKS = 200;
    private static final int FULL_EVERY = 20; // ContainerWatch.fullReadEvery at 50 ms

    private SamplerTickBreakdown() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        List<String> ids = new ArrayList<>();
        List<ResourceProbe> probes = new ArrayList<>();
        try {
            ProbeFactory factory = ProbeFactory.forThisHost(() -> {
                throw new IllegalStateException("the breakdown reads the host's cgroup files only");
            });
            for (int i = 0; i < count; i++) {
                String id = DockerCli.run("run", "-d", "--rm", "--label", "io.vitals.managed=true",
                        "vitals/stress:latest", "sleep", "infinity").strip();
                ids.add(id);
                long pid = Long.parseLong(DockerCli.run("inspect", "--format", "{{.State.Pid}}", id).strip());
                probes.add(factory.open(new ContainerTarget(id, "c" + i, "vitals/stress:latest", pid,
                        OptionalLong.empty()), ProbeMode.HOST_CGROUP));
            }
            List<RawReading> last = new ArrayList<>();
            for (ResourceProbe probe : probes) {
                last.add(probe.read());
            }
            Map<String, String> figures = new LinkedHashMap<>();
            for (int warmUp = 0; warmUp < 2; warmUp++) { // the last round counts: JIT-compiled read path
                figures.put("tight_loop_fast_read_us", us(backToBack(probes, last, false) / count / 400.0));
                figures.put("tight_loop_full_read_us", us(backToBack(probes, last, true) / count / 40.0));
            }
            figures.put("on_timer_fast_reads_us_per_container_sample", us(onTimer(probes, last, false) / count
                    / (double) TICKS));
            figures.put("on_timer_tiered_us_per_container_sample", us(onTimer(probes, last, true) / count
                    / (double) TICKS));
            figures.put("on_timer_wake_up_only_us", us(onTimer(List.of(), List.of(), false) / (double) TICKS));
            figures.forEach((name, value) -> System.out.println(name + "=" + value));
        } finally {
            probes.forEach(ResourceProbe::close);
            if (!ids.isEmpty()) {
                List<String> remove = new ArrayList<>(List.of("rm", "-f"));
                remove.addAll(ids);
                DockerCli.run(REMOVAL_TIMEOUT, remove.toArray(String[]::new));
            }
        }
    }

    /** CPU nanoseconds of 400 fast, or 40 full, read rounds over every probe, one after the other. */
    private static long backToBack(List<ResourceProbe> probes, List<RawReading> last, boolean full)
            throws ProbeException {
        long before = THREADS.getCurrentThreadCpuTime();
        for (int round = 0; round < (full ? 40 : 400); round++) {
            for (int i = 0; i < probes.size(); i++) {
                last.set(i, full ? probes.get(i).read() : probes.get(i).readFast(last.get(i)));
            }
        }
        return THREADS.getCurrentThreadCpuTime() - before;
    }

    /** CPU nanoseconds of a thread that wakes every 50 ms and reads every probe (every 20th round in full). */
    private static long onTimer(List<ResourceProbe> probes, List<RawReading> start, boolean tiered)
            throws InterruptedException {
        long[] cpu = new long[1];
        Thread thread = new Thread(() -> {
            List<RawReading> last = new ArrayList<>(start);
            long before = THREADS.getCurrentThreadCpuTime();
            long next = System.nanoTime();
            try {
                for (int tick = 0; tick < TICKS; tick++) {
                    next += TICK_NANOS;
                    LockSupport.parkNanos(next - System.nanoTime());
                    for (int i = 0; i < probes.size(); i++) {
                        last.set(i, tiered && tick % FULL_EVERY == 0 ? probes.get(i).read()
                                : probes.get(i).readFast(last.get(i)));
                    }
                }
            } catch (ProbeException e) {
                throw new IllegalStateException(e);
            }
            cpu[0] = THREADS.getCurrentThreadCpuTime() - before;
        }, "vitals-tick-breakdown");
        thread.start();
        thread.join();
        return cpu[0];
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }
}
