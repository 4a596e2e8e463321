package io.vitals.internal.report;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs report tasks on one background thread, first in first out, waking that thread at most once per batch: a
 * task handed over waits up to the batch delay, together with every task handed over meanwhile.
 *
 * <p>Why batches: waking the writer for every test cost the test thread about half a millisecond
 * ({@code PerTestOverheadBenchmark}, instrumented): on a two-core machine a thread that has slept is scheduled at
 * once when woken, ahead of the test thread that woke it. Queuing a task is now an add to a lock-free queue; the
 * thread is woken once for the first task of a batch.
 */
final class ReportQueue {

    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final ScheduledThreadPoolExecutor thread;
    private final long batchDelayNanos;
    private final Consumer<String> warnings;

    ReportQueue(String threadName, Duration batchDelay, Consumer<String> warnings) {
        this.batchDelayNanos = batchDelay.toNanos();
        this.warnings = warnings;
        this.thread = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true); // finish() drains it; a JVM that is killed loses what is still queued
            return thread;
        });
        // finish() runs everything queued at once; a batch still waiting for its delay has nothing left to run
        this.thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Queues {@code task}: it runs within the batch delay, after every task queued before it. */
    void add(Runnable task) {
        tasks.add(task);
        if (drainScheduled.compareAndSet(false, true)) {
            thread.schedule(this::drain, batchDelayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Has what is queued run now, without waiting for the batch delay (for a test that waits for its file). */
    void runSoon() {
        thread.execute(this::drain);
    }

    /** Returns once every task queued before this call has run. */
    void await() throws InterruptedException, ExecutionException {
        thread.submit(this::drain).get();
    }

    /**
     * Runs what is queued and takes nothing more; {@link #awaitFinished} waits for it. The caller must not add
     * tasks after this call.
     */
    void finish() {
        thread.execute(this::drain);
        thread.shutdown();
    }

    /** After {@link #finish()}: whether every task ran within {@code timeout}. */
    boolean awaitFinished(Duration timeout) throws InterruptedException {
        return thread.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    // only ever on the one thread, so tasks never run side by side and keep the order they were queued in
    private void drain() {
        // cleared before polling: a task queued after the last poll schedules the next drain itself
        drainScheduled.set(false);
        for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
            try {
                task.run();
            } catch (RuntimeException e) {
                // every task reports its own failures; one that escapes must not strand the tasks behind it
                warnings.accept("A report task failed: " + e);
            }
        }
    }
}
