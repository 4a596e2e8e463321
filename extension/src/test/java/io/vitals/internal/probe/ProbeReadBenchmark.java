package io.vitals.internal.probe;

import io.vitals.internal.probe.cgroupfs.CgroupFiles;
import io.vitals.internal.probe.cgroupfs.KeyedLines;
import io.vitals.internal.probe.cgroupfs.NetDevLines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmarks of the host probe: a full and a fast read of a real container's cgroup files through the
 * descriptors the probe keeps open, and the byte parsers on recorded files next to the {@code String.split} parsing
 * they replaced. Not a test; run it by hand (see docs/benchmarks.md):
 *
 * <pre>
 * mvn -o -q -pl extension test-compile exec:exec -Dexec.classpathScope=test -Dexec.executable=java \
 *     -Dexec.args="-cp %classpath org.openjdk.jmh.Main ProbeReadBenchmark -prof gc"
 * </pre>
 *
 * <p>The read benchmarks start one idle {@code vitals/stress:latest} container (labelled
 * {@code io.vitals.managed=true}) through the docker CLI and remove it afterwards; pass
 * {@code -jvmArgs -Dvitals.bench.pid=<host pid>} to read an existing container instead.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProbeReadBenchmark {

    /** A probe on a live container. */
    @State(Scope.Benchmark)
    public static class LiveProbe {
        String containerId;
        HostCgroupProbe probe;
        RawReading last;

        @Setup(Level.Trial)
        public void open() throws Exception {
            long pid;
            String given = System.getProperty("vitals.bench.pid");
            if (given != null) {
                pid = Long.parseLong(given);
            } else {
                containerId = run("docker", "run", "-d", "--rm", "--label", "io.vitals.managed=true",
                        "--label", "io.vitals.bench=probe-read", "vitals/stress:latest", "sleep", "infinity");
                pid = Long.parseLong(run("docker", "inspect", "--format", "{{.State.Pid}}", containerId));
            }
            probe = HostCgroupProbe.open("bench", pid, CgroupLocator.forThisHost(), Path.of("/proc"),
                    Clock.systemUTC());
            last = probe.read();
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            probe.close();
            if (containerId != null) {
                run("docker", "rm", "-f", containerId);
            }
        }
    }

    /** The recorded cgroup v1 memory.stat (42 keys) and a net/dev with two interfaces. */
    @State(Scope.Benchmark)
    public static class RecordedFiles {
        byte[] memoryStat;
        String memoryStatText;
        byte[] netDev;
        String netDevText;
        final CgroupFiles.Keys keys = new CgroupFiles.Keys("total_inactive_file", "total_cache", "total_rss",
                "total_swap");
        final long[] values = keys.newValues();
        final long[] pair = new long[2];
        final Path source = Path.of("memory.stat");

        @Setup(Level.Trial)
        public void load() throws IOException {
            memoryStat = Files.readAllBytes(Fixtures.v1Dir(Fixtures.v1Root(), "memory").resolve("memory.stat"));
            memoryStatText = new String(memoryStat, StandardCharsets.US_ASCII);
            netDev = Files.readAllBytes(Fixtures.v2Root().resolve("proc/" + Fixtures.V2_PID + "/net/dev"));
            netDevText = new String(netDev, StandardCharsets.US_ASCII);
        }
    }

    @Benchmark
    public RawReading fullRead(LiveProbe live) throws ProbeException {
        return live.probe.read();
    }

    @Benchmark
    public RawReading fastRead(LiveProbe live) throws ProbeException {
        return live.probe.readFast(live.last);
    }

    @Benchmark
    public long[] parseMemoryStatBytes(RecordedFiles files) throws IOException {
        KeyedLines.parseKeyed(files.memoryStat, files.memoryStat.length, files.keys, files.values, files.source);
        return files.values;
    }

    /** The parser this replaced: String.split with regular expressions into a map. */
    @Benchmark
    public Map<String, Long> parseMemoryStatSplit(RecordedFiles files) {
        Map<String, Long> values = new HashMap<>();
        for (String line : files.memoryStatText.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.trim().split("\\s+");
            values.put(parts[0], Long.parseLong(parts[1]));
        }
        return values;
    }

    @Benchmark
    public long[] parseNetDevBytes(RecordedFiles files) throws IOException {
        NetDevLines.parseNetDev(files.netDev, files.netDev.length, files.pair, files.source);
        return files.pair;
    }

    /** The parser this replaced. */
    @Benchmark
    public long[] parseNetDevSplit(RecordedFiles files) {
        long[] receivedSent = new long[2];
        for (String line : files.netDevText.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.contains("|") || line.substring(0, colon).trim().equals("lo")) {
                continue;
            }
            String[] fields = line.substring(colon + 1).trim().split("\\s+");
            receivedSent[0] += Long.parseLong(fields[0]);
            receivedSent[1] += Long.parseLong(fields[8]);
        }
        return receivedSent;
    }

    static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }
}
