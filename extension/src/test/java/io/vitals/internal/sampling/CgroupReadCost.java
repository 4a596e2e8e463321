package io.vitals.internal.sampling;

import io.vitals.testing.DockerCli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one cgroup v1 file read costs on this kernel, per file of a busy container's tick (the four files
 * {@code CgroupV1StatsReader.readFast} reads when the CPU counter moved: {@code cpuacct.usage},
 * {@code memory.usage_in_bytes}, {@code memory.oom_control}, {@code pids.current}): N busy containers
 * ({@code stress-ng --timer 1 --timer-freq 100}, as {@code SamplerOverheadBenchmark busy}), read on a 50 ms timer
 * as the sampler reads them, each read timed on its own. Ticks alternate two ways of reading: a descriptor kept
 * open and read at offset 0 ({@code pread}, what the probes do), and open, read, close per read (what they did
 * before). Also the same reads back to back (caches warm), and the timer's reads' CPU time per container-sample.
 * Not a test: needs Docker and {@code vitals/stress:latest}; prints {@code name=value} lines:
 *
 * <pre>
 * java -cp extension/target/test-classes:extension/target/classes:$(cat extension/target/cp.txt) \
 *     io.vitals.internal.sampling.CgroupReadCost [containers=20] [ticks=200]
 * </pre>
 */
public final class CgroupReadCost {

    /** Removing a hundred containers at once takes minutes on a busy machine. */
    private static final Duration REMOVAL_TIMEOUT = Duration.ofMinutes(10);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long TICK_NANOS = 50_000_000L;
    private static final String[] FILES = {"cpuacct/docker/%s/cpuacct.usage", "memory/docker/%s/memory.usage_in_bytes",
        "memory/docker/%s/memory.oom_control", "pids/docker/%s/pids.current"};

    private CgroupReadCost() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int ticks = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        List<String> ids = new ArrayList<>();
        List<FileChannel> open = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                ids.add(DockerCli.run("run", "-d", "--rm", "--label", "io.vitals.managed=true",
                        "vitals/stress:latest", "stress-ng", "--timer", "1", "--timer-freq", "100", "--quiet").strip());
            }
            List<Path> paths = new ArrayList<>();
            for (String id : ids) {
                for (String file : FILES) {
                    Path path = Path.of("/sys/fs/cgroup", String.format(Locale.ROOT, file, id));
                    paths.add(path);
                    open.add(FileChannel.open(path, StandardOpenOption.READ));
                }
            }
            ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
            long[][] kept = new long[FILES.length][];
            long[][] reopened = new long[FILES.length][];
            for (int f = 0; f < FILES.length; f++) {
                kept[f] = new long[count * (ticks / 2)];
                reopened[f] = new long[count * (ticks / 2)];
            }
            long keptCpu = 0;
            long reopenedCpu = 0;
            Thread.sleep(2_000); // stress-ng running
            for (int warmUp = 0; warmUp < 2000; warmUp++) { // the read path JIT-compiled
                read(open.get(warmUp % open.size()), buffer);
            }
            long next = System.nanoTime();
            for (int tick = 0; tick < ticks; tick++) {
                next += TICK_NANOS;
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
                boolean keep = tick % 2 == 0;
                long cpu = THREADS.getCurrentThreadCpuTime();
                for (int c = 0; c < count; c++) {
                    for (int f = 0; f < FILES.length; f++) {
                        int index = c * FILES.length + f;
                        long start = System.nanoTime();
                        if (keep) {
                            read(open.get(index), buffer);
                        } else {
                            try (FileChannel channel = FileChannel.open(paths.get(index), StandardOpenOption.READ)) {
                                read(channel, buffer);
                            }
                        }
                        (keep ? kept : reopened)[f][(tick / 2) * count + c] = System.nanoTime() - start;
                    }
                }
                cpu = THREADS.getCurrentThreadCpuTime() - cpu;
                if (keep) {
                    keptCpu += cpu;
                } else {
                    reopenedCpu += cpu;
                }
            }
            long warm = System.nanoTime();
            int warmReads = 0;
            for (int round = 0; round < 200; round++) {
                for (FileChannel channel : open) {
                    read(channel, buffer);
                    warmReads++;
                }
            }
            double warmUs = (System.nanoTime() - warm) / 1e3 / warmReads;
            Map<String, String> figures = new LinkedHashMap<>();
            for (int f = 0; f < FILES.length; f++) {
                String name = FILES[f].substring(FILES[f].lastIndexOf('/') + 1).replace('.', '_');
                figures.put("timer_pread_us_median_" + name, us(median(kept[f])));
                figures.put("timer_open_read_close_us_median_" + name, us(median(reopened[f])));
            }
            double samples = count * (ticks / 2.0);
            figures.put("timer_pread_four_files_cpu_us_per_container_sample", us(keptCpu / samples));
            figures.put("timer_open_read_close_four_files_cpu_us_per_container_sample", us(reopenedCpu / samples));
            figures.put("back_to_back_pread_us_per_file", String.format(Locale.ROOT, "%.2f", warmUs));
            figures.forEach((name, value) -> System.out.println(name + "=" + value));
        } finally {
            for (FileChannel channel : open) {
                channel.close();
            }
            if (!ids.isEmpty()) {
                List<String> remove = new ArrayList<>(List.of("rm", "-f"));
                remove.addAll(ids);
                DockerCli.run(REMOVAL_TIMEOUT, remove.toArray(String[]::new));
            }
        }
    }

    private static void read(FileChannel channel, ByteBuffer buffer) throws IOException {
        buffer.clear();
        channel.read(buffer, 0); // pread at offset 0: the kernel generates the file anew
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e3);
    }
}
