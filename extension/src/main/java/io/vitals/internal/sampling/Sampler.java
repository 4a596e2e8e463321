package io.vitals.internal.sampling;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One daemon thread that samples every watched container at its own interval. The thread is created when the
 * first container is watched and stopped, and joined, when the last one is unwatched, so a test run that watches
 * nothing leaves no thread behind, and neither does one that watched something.
 *
 * <p>Readings are fixed-rate: a slow read delays the next one but never overlaps it.
 */
public final class Sampler implements AutoCloseable {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);

    private final String threadName;
    private final AtomicInteger threads = new AtomicInteger();
    private final Map<ContainerWatch, ScheduledFuture<?>> scheduled = new HashMap<>();
    private ScheduledThreadPoolExecutor executor;
    /** The current executor's thread: when it unschedules the last watch itself, it must not wait for itself. */
    private volatile Thread samplerThread;

    public Sampler(String threadName) {
        this.threadName = threadName;
    }

    synchronized void schedule(ContainerWatch watch, Duration interval) {
        if (scheduled.containsKey(watch)) {
            return;
        }
        if (executor == null) {
            executor = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, threadName + "-" + threads.incrementAndGet());
                thread.setDaemon(true);
                samplerThread = thread;
                return thread;
            });
            executor.setRemoveOnCancelPolicy(true);
        }
        long nanos = interval.toNanos();
        scheduled.put(watch, executor.scheduleAtFixedRate(watch::sampleOnce, nanos, nanos, TimeUnit.NANOSECONDS));
    }

    /** Stops sampling {@code watch}; when nothing is left to sample, stops and joins the thread. */
    synchronized void unschedule(ContainerWatch watch) {
        ScheduledFuture<?> future = scheduled.remove(watch);
        if (future != null) {
            future.cancel(false);
        }
        if (scheduled.isEmpty()) {
            stopThread();
        }
    }

    /** Number of containers being sampled now. */
    public synchronized int watchedContainers() {
        return scheduled.size();
    }

    /** Whether the sampling thread is alive. */
    public synchronized boolean isRunning() {
        return executor != null;
    }

    private void stopThread() {
        ScheduledExecutorService stopping = executor;
        executor = null;
        if (stopping == null) {
            return;
        }
        stopping.shutdown();
        if (Thread.currentThread() == samplerThread) {
            // called from a sample (a container went away): the thread ends when this sample returns; waiting
            // for our own termination would hold this lock for the whole join timeout
            return;
        }
        try {
            if (!stopping.awaitTermination(JOIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                stopping.shutdownNow();
            }
        } catch (InterruptedException e) {
            stopping.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        scheduled.values().forEach(future -> future.cancel(false));
        scheduled.clear();
        stopThread();
    }
}
