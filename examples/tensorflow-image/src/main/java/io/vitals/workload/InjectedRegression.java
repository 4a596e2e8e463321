package io.vitals.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Regressions injected on purpose, for the noise-and-power harness ({@code run.sh noise}): they do real work, so
 * what Vitals measures is a real change and not a doctored figure.
 *
 * <ul>
 *   <li>{@code --extra-cpu-percent N}: after training, one thread computes until the process's CPU time (all its
 *       threads, TensorFlow's native ones included) is N % above what the run had used.</li>
 *   <li>{@code --extra-memory-percent N}: during training a thread samples the container's working set (usage
 *       minus inactive page cache, as docker stats shows it) every 10 ms; after training a buffer is allocated and
 *       every page touched so that the working set reaches N % above the highest value seen, held for 300 ms so
 *       that 50 ms sampling sees it. (A first version used the process's own {@code VmHWM}, which counts the
 *       mapped native libraries, and lifted the container's peak by 55 % instead of 20 %.)</li>
 * </ul>
 */
final class InjectedRegression {

  private static final long HOLD_MS = 300;
  private static final int PAGE = 4096;

  private InjectedRegression() {}

  static void apply(int extraCpuPercent, int extraMemoryPercent, PeakWatch watch, PrintStream log)
      throws IOException, InterruptedException {
    if (extraCpuPercent > 0) {
      burnCpu(extraCpuPercent, log);
    }
    if (extraMemoryPercent > 0) {
      raisePeakMemory(extraMemoryPercent, watch, log);
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

  /**
   * Lifts the container's working set (what docker stats calls MEM USAGE: usage minus inactive page cache, read
   * from the container's own cgroup) to N % above the highest value {@link PeakWatch} saw during the run.
   */
  private static void raisePeakMemory(int percent, PeakWatch watch, PrintStream log) throws IOException,
      InterruptedException {
    long peak = watch.stop();
    long now = ContainerMemory.workingSet();
    long extra = Math.max(0, peak + peak * percent / 100 - now);
    ByteBuffer ballast = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, extra));
    for (int i = 0; i < ballast.capacity(); i += PAGE) {
      ballast.put(i, (byte) 1);
    }
    log.printf(Locale.ROOT, "train: injected +%d %% peak memory: working set peaked at %d KiB, now %d KiB%n",
        percent, peak / 1024, ContainerMemory.workingSet() / 1024);
    Thread.sleep(HOLD_MS);
    ballast.put(0, (byte) 2); // keeps the buffer reachable until here
  }

  /** Samples the container's working set every 10 ms on a daemon thread and keeps the highest value. */
  static final class PeakWatch {
    private final AtomicLong peak = new AtomicLong();
    private final Thread thread;

    private PeakWatch() {
      thread = new Thread(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          try {
            peak.accumulateAndGet(ContainerMemory.workingSet(), Math::max);
            Thread.sleep(10);
          } catch (InterruptedException e) {
            return;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }, "injected-regression-peak-watch");
      thread.setDaemon(true);
      thread.start();
    }

    static PeakWatch startIf(boolean needed) {
      return needed ? new PeakWatch() : null;
    }

    long stop() throws InterruptedException {
      thread.interrupt();
      thread.join();
      return peak.get();
    }
  }

  /** The container's working set from inside it: cgroup v1 or v2 usage minus inactive file pages. */
  static final class ContainerMemory {
    private static final Path V1 = Path.of("/sys/fs/cgroup/memory");
    private static final Path V2 = Path.of("/sys/fs/cgroup");

    private ContainerMemory() {}

    static long workingSet() throws IOException {
      boolean v1 = Files.exists(V1.resolve("memory.usage_in_bytes"));
      long usage = Long.parseLong(Files.readString(v1 ? V1.resolve("memory.usage_in_bytes")
          : V2.resolve("memory.current")).trim());
      String inactive = v1 ? "total_inactive_file " : "inactive_file ";
      for (String line : Files.readAllLines((v1 ? V1 : V2).resolve("memory.stat"))) {
        if (line.startsWith(inactive)) {
          return Math.max(0, usage - Long.parseLong(line.substring(inactive.length()).trim()));
        }
      }
      return usage;
    }
  }
}
