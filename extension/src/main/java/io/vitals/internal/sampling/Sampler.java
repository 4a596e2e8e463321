package io.vitals.internal.sampling;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.ReadBatch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apiguardian.api.API;

/**
 * One daemon thread that samples every watched container at its own interval. The thread is created when the
 * first container is watched and stopped, and joined, when the last one is unwatched, so a test run that watches
 * nothing leaves no thread behind, and neither does one that watched something.
 *
 * <p>Readings are fixed-rate: a slow read delays the next one but never overlaps it. Watches with the same interval
 * share one timer and are read one after the other on each of its ticks: a wake-up of the thread (timer, futex,
 * context switch) costs more CPU than a fast read of a container, so a hundred containers at 50 ms wake the thread
 * 20 times a second, not 2,000.
 */
@API(status = INTERNAL, since = "0.1")
public final class Sampler implements AutoCloseable {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);

    private final String threadName;
    private final AtomicInteger threads = new AtomicInteger();
    private final Map<ContainerWatch, Duration> scheduled = new HashMap<>();
    private final Map<Duration, Group> groups = new HashMap<>();
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
        scheduled.put(watch, interval);
        Group group = groups.get(interval);
        if (group == null) {
            group = new Group();
            long nanos = interval.toNanos();
            group.future = executor.scheduleAtFixedRate(group::tick, nanos, nanos, TimeUnit.NANOSECONDS);
            groups.put(interval, group);
        }
        group.watches.add(watch);
    }

    /** The watches of one interval, read in turn on each tick of their shared timer. */
    private static final class Group {
        final List<ContainerWatch> watches = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> future;

        void tick() {
            prefetchReads();
            // a watch that ends during the tick (its container went away) leaves the list; the iteration goes on
            for (ContainerWatch watch : watches) {
                watch.sampleOnce();
            }
        }

        /**
         * Lets each batch (the agent's stream) fetch the tick's reads of its members in one round trip, before
         * they are read one by one; a batch of one gains nothing and is left to its own read.
         */
        private void prefetchReads() {
            Map<ReadBatch, TickBatch> batches = null;
            for (ContainerWatch watch : watches) {
                Optional<ReadBatch.Member> member = watch.batchMember();
                if (member.isPresent()) {
                    if (batches == null) {
                        batches = new IdentityHashMap<>();
                    }
                    TickBatch tick = batches.computeIfAbsent(member.get().batch(), batch -> new TickBatch());
                    (watch.nextTickReadsFull() ? tick.full : tick.fast).add(member.get());
                }
            }
            if (batches == null) {
                return;
            }
            batches.forEach((batch, tick) -> {
                if (tick.fast.size() + tick.full.size() > 1) {
                    try {
                        batch.prefetch(tick.fast, tick.full);
                    } catch (RuntimeException e) {
                        // each member's own read meets the failure again and counts it against its container
                    }
                }
            });
        }
    }

    /** The members of one batch on one tick, by the read each is due. */
    private static final class TickBatch {
        final List<ReadBatch.Member> fast = new ArrayList<>();
        final List<ReadBatch.Member> full = new ArrayList<>();
    }

    /** Stops sampling {@code watch}; when nothing is left to sample, stops and joins the thread. */
    synchronized void unschedule(ContainerWatch watch) {
        Duration interval = scheduled.remove(watch);
        Group group = interval == null ? null : groups.get(interval);
        if (group != null) {
            group.watches.remove(watch);
            if (group.watches.isEmpty()) {
                group.future.cancel(false);
                groups.remove(interval);
            }
        }
        if (scheduled.isEmpty()) {
            stopThread();
        }
    }

    /** Number of containers being sampled now. */
    public synchronized int watchedContainers() {
        return scheduled.size();
    }

    /** Number of timers: one per distinct interval being sampled. */
    synchronized int timers() {
        return groups.size();
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
        groups.values().forEach(group -> group.future.cancel(false));
        groups.clear();
        scheduled.clear();
        stopThread();
    }
}
