package io.vitals.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Regressions injected on purpose, for the noise-and-power harness ({@code run.sh noise}): they do real work, so
 * what Vitals measures is a real change and not a doctored figure.
 *
 * <ul>
 *   <li>{@code --extra-cpu-percent N}: after training, one thread computes until the process's CPU time (all its
 *       threads, TensorFlow's native ones included) is N % above what the run had used.</li>
 *   <li>{@code --extra-memory-percent N}: after training, a buffer is allocated and every page touched so that the
 *       process's resident set reaches N % above its own high-water mark ({@code VmHWM}), held for 300 ms so that
 *       50 ms sampling sees it. The container's peak also holds page cache and other processes, so its peak grows
 *       by somewhat less than N %; the harness reports the effect it measured.</li>
 * </ul>
 */
final class InjectedRegression {

  private static final long HOLD_MS = 300;
  private static final int PAGE = 4096;

  private InjectedRegression() {}

  static void apply(int extraCpuPercent, int extraMemoryPercent, PrintStream log) throws IOException,
      InterruptedException {
    if (extraCpuPercent > 0) {
      burnCpu(extraCpuPercent, log);
    }
    if (extraMemoryPercent > 0) {
      raisePeakMemory(extraMemoryPercent, log);
    }
  }

  private static void burnCpu(int percent, PrintStream log) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long used = os.getProcessCpuTime();
    long target = used + used * percent / 100;
    double sink = 1;
    while (os.getProcessCpuTime() < target) {
      for (int i = 0; i < 100_000; i++) {
        sink = sink * 1.0000001 + 1e-9;
      }
    }
    log.printf(Locale.ROOT, "train: injected +%d %% CPU: %.3f s -> %.3f s (%s)%n", percent, used / 1e9,
        os.getProcessCpuTime() / 1e9, sink > 0 ? "done" : "");
  }

  private static void raisePeakMemory(int percent, PrintStream log) throws IOException, InterruptedException {
    long highWater = statusKib("VmHWM:") * 1024;
    long resident = statusKib("VmRSS:") * 1024;
    long target = highWater + highWater * percent / 100;
    long extra = Math.max(0, target - resident);
    ByteBuffer ballast = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, extra));
    for (int i = 0; i < ballast.capacity(); i += PAGE) {
      ballast.put(i, (byte) 1);
    }
    log.printf(Locale.ROOT, "train: injected +%d %% peak RSS: high-water mark %d KiB, now %d KiB%n", percent,
        highWater / 1024, statusKib("VmRSS:"));
    Thread.sleep(HOLD_MS);
    ballast.put(0, (byte) 2); // keeps the buffer reachable until here
  }

  private static long statusKib(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
      }
    }
    throw new IOException(field + " missing from /proc/self/status");
  }
}
