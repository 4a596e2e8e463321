package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.vitals.ResourceUsage;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadBatch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Sampler and ContainerWatch")
class SamplerTests {

    private static List<Thread> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix + "-"))
                .toList();
    }

    /** Joins the threads of {@code prefix} (they must end soon) and returns those still alive. */
    private static List<Thread> liveThreadsAfterJoin(String prefix) throws InterruptedException {
        for (Thread thread : threadsNamed(prefix)) {
            thread.join(5_000);
        }
        return threadsNamed(prefix).stream().filter(Thread::isAlive).toList();
    }

    private static void awaitCondition(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(5);
        }
    }

    @Test
    @DisplayName("tiered reads: at 50 ms a tick reads the fast counters, every 20th tick and every window edge all")
    void tieredReads() throws Exception {
        try (Sampler sampler = new Sampler("vitals-tiers-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0));
            ContainerWatch watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
            MeasurementWindow window = watch.openWindow();
            assertThat(probe.reads.get() - probe.fastReads.get()).isEqualTo(1); // the start reading is full
            for (int tick = 0; tick < 45; tick++) {
                probe.set(Readings.atMillis(50L * (tick + 1)).cpu(1_000_000L * (tick + 1))); // a busy container
                watch.sampleOnce();
            }
            assertThat(probe.reads.get()).isEqualTo(46);
            assertThat(probe.reads.get() - probe.fastReads.get()).isEqualTo(1 + 2); // ticks 20 and 40
            window.close();
            assertThat(probe.reads.get() - probe.fastReads.get()).isEqualTo(4); // the end reading is full
        }
        assertThat(ContainerWatch.fullReadEvery(Duration.ofMillis(50))).isEqualTo(20);
        assertThat(ContainerWatch.fullReadEvery(Duration.ofMillis(10))).isEqualTo(100);
        assertThat(ContainerWatch.fullReadEvery(Duration.ofMillis(500))).isEqualTo(2);
        assertThat(ContainerWatch.fullReadEvery(Duration.ofSeconds(1))).isEqualTo(1);
    }

    @Test
    @DisplayName("an idle container has every other periodic full read left out; window edges are always full")
    void idleContainerSkipsEveryOtherFullRead() throws Exception {
        try (Sampler sampler = new Sampler("vitals-idle-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0).cpu(5_000_000));
            ContainerWatch watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
            MeasurementWindow window = watch.openWindow();
            List<RawReading> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
            window.onReading(samples::add);
            for (int tick = 1; tick <= 80; tick++) {
                if (tick == 41) {
                    probe.set(Readings.atMillis(50L * tick).cpu(7_000_000)); // it works again
                }
                watch.sampleOnce();
            }
            int full = probe.reads.get() - probe.fastReads.get();
            // start; tick 20 idle since the start: left out; tick 40 full (never two left out in a row); the CPU
            // moves at tick 41, so tick 60 is full; tick 80, idle since tick 60: left out
            assertThat(full).isEqualTo(3);
            assertThat(samples).hasSize(80);
            ResourceUsage usage = window.close();
            assertThat(probe.reads.get() - probe.fastReads.get()).as("the end reading is full").isEqualTo(4);
            assertThat(usage.cpuTime()).isEqualTo(Duration.ofMillis(2));
        }
    }

    @Test
    @DisplayName("watches of one interval share one timer, and every one of them is read on its ticks")
    void sharedTimer() throws Exception {
        try (Sampler sampler = new Sampler("vitals-timers-" + UUID.randomUUID())) {
            List<FakeProbe> probes = new java.util.ArrayList<>();
            List<ContainerWatch> watches = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                FakeProbe probe = new FakeProbe(Readings.atMillis(0));
                probes.add(probe);
                watches.add(ContainerWatch.start("c" + i, "img", probe, Duration.ofMillis(5), sampler));
            }
            FakeProbe slow = new FakeProbe(Readings.atMillis(0));
            ContainerWatch slowWatch = ContainerWatch.start("s", "img", slow, Duration.ofMillis(10), sampler);
            assertThat(sampler.timers()).isEqualTo(2);
            awaitCondition(() -> probes.stream().allMatch(p -> p.reads.get() >= 3) && slow.reads.get() >= 2);

            watches.get(1).close();
            int afterClose = probes.get(2).reads.get();
            awaitCondition(() -> probes.get(2).reads.get() >= afterClose + 2); // a tick under way has ended
            int readsOfClosed = probes.get(1).reads.get();
            int readsOfOther = probes.get(2).reads.get();
            awaitCondition(() -> probes.get(2).reads.get() >= readsOfOther + 3);
            assertThat(probes.get(1).reads.get()).isEqualTo(readsOfClosed);
            watches.get(0).close();
            watches.get(2).close();
            assertThat(sampler.timers()).isEqualTo(1);
            slowWatch.close();
            assertThat(sampler.timers()).isZero();
        }
    }

    @Test
    @DisplayName("a tick prefetches its members' reads per batch, fast and full, just before reading them")
    void batchedReads() throws Exception {
        List<Integer> batchSizes = new java.util.concurrent.CopyOnWriteArrayList<>();
        Map<ReadBatch.Member, FakeProbe> probeOf = new java.util.concurrent.ConcurrentHashMap<>();
        ReadBatch batch = (fast, full) -> {
            batchSizes.add(fast.size() + full.size());
            fast.forEach(member -> probeOf.get(member).events.add('P'));
            full.forEach(member -> probeOf.get(member).events.add('Q'));
        };
        try (Sampler sampler = new Sampler("vitals-batch-" + UUID.randomUUID())) {
            List<FakeProbe> batched = new java.util.ArrayList<>();
            List<ContainerWatch> watches = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                FakeProbe probe = new FakeProbe(Readings.atMillis(0));
                ReadBatch.Member member = () -> batch;
                probe.batchMember = Optional.of(member);
                probeOf.put(member, probe);
                batched.add(probe);
                watches.add(ContainerWatch.start("b" + i, "img", probe, Duration.ofMillis(5), sampler));
            }
            FakeProbe alone = new FakeProbe(Readings.atMillis(0)); // no batch: read on its own, as a host probe
            watches.add(ContainerWatch.start("h", "img", alone, Duration.ofMillis(5), sampler));
            MeasurementWindow window = watches.get(0).openWindow(); // edges read() on this thread, unbatched
            // 5 ms ticks read all every 200th tick (1 s), an idle container every 400th: wait past one of those
            awaitCondition(() -> batched.stream().allMatch(p -> p.events.stream().filter(e -> e == 'S').count() >= 2));
            window.close();
            watches.forEach(ContainerWatch::close);

            assertThat(batchSizes).hasSizeGreaterThan(300).containsOnly(3);
            assertThat(alone.events).doesNotContain('P', 'Q').contains('S', 'F');
            for (FakeProbe probe : batched) {
                String events = probe.events.stream().map(String::valueOf).collect(Collectors.joining());
                // every tick read was prefetched: the fast ones as fast, the full ones as full
                assertThat(events.replace("PF", "").replace("QS", "").replace("R", "")).isEmpty();
                assertThat(events).contains("PFQSPF");
            }
            assertThat(batched.get(0).events).as("the window's edges").containsSubsequence('R', 'R');
        }
    }

    @Test
    @DisplayName("a sampler that watches nothing starts no thread")
    void idle() {
        String name = "vitals-idle-" + UUID.randomUUID();
        try (Sampler sampler = new Sampler(name)) {
            assertThat(sampler.isRunning()).isFalse();
            assertThat(sampler.watchedContainers()).isZero();
        }
        assertThat(threadsNamed(name)).isEmpty();
    }

    @Test
    @DisplayName("the thread samples on its own and stops after the last watch closes")
    void threadLifecycle() throws Exception {
        String name = "vitals-lifecycle-" + UUID.randomUUID();
        Sampler sampler = new Sampler(name);
        FakeProbe a = new FakeProbe(Readings.atMillis(0));
        FakeProbe b = new FakeProbe(Readings.atMillis(0));
        ContainerWatch first = ContainerWatch.start("a", "img", a, Duration.ofMillis(5), sampler);
        ContainerWatch second = ContainerWatch.start("b", "img", b, Duration.ofMillis(5), sampler);
        assertThat(sampler.isRunning()).isTrue();
        assertThat(sampler.watchedContainers()).isEqualTo(2);
        awaitCondition(() -> a.reads.get() > 0 && b.reads.get() > 0);
        assertThat(threadsNamed(name)).isNotEmpty();

        first.close();
        assertThat(a.closes.get()).isEqualTo(1);
        assertThat(sampler.isRunning()).isTrue();
        assertThat(sampler.watchedContainers()).isEqualTo(1);

        second.close();
        assertThat(sampler.isRunning()).isFalse();
        assertThat(sampler.watchedContainers()).isZero();
        assertThat(liveThreadsAfterJoin(name)).isEmpty();
        int reads = b.reads.get();
        Thread.sleep(30);
        assertThat(b.reads.get()).isEqualTo(reads);

        // a later watch starts a fresh thread, and closing the sampler stops it too
        ContainerWatch third = ContainerWatch.start("c", "img", new FakeProbe(Readings.atMillis(0)),
                Duration.ofMillis(5), sampler);
        assertThat(sampler.isRunning()).isTrue();
        sampler.close();
        assertThat(sampler.isRunning()).isFalse();
        assertThat(liveThreadsAfterJoin(name)).isEmpty();
        third.close();
    }

    @Test
    @DisplayName("the interval is the probe's minimum when a shorter one is asked for")
    void minimumInterval() {
        try (Sampler sampler = new Sampler("vitals-interval-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0)) {
                @Override
                public Duration minimumInterval() {
                    return Duration.ofSeconds(1);
                }
            };
            ContainerWatch slow = ContainerWatch.start("s", "img", probe, Duration.ofMillis(50), sampler);
            assertThat(slow.interval()).isEqualTo(Duration.ofSeconds(1));
            ContainerWatch fast = ContainerWatch.start("f", "img", new FakeProbe(Readings.atMillis(0)),
                    Duration.ofMillis(50), sampler);
            assertThat(fast.interval()).isEqualTo(Duration.ofMillis(50));
            assertThat(fast.name()).isEqualTo("f");
            assertThat(fast.image()).isEqualTo("img");
            slow.close();
            fast.close();
        }
    }

    @Test
    @DisplayName("a container that goes away on the sampler thread stops the thread promptly")
    void goneOnSamplerThread() throws Exception {
        String name = "vitals-gone-" + UUID.randomUUID();
        Sampler sampler = new Sampler(name);
        FakeProbe probe = new FakeProbe(Readings.atMillis(0));
        ContainerWatch watch = ContainerWatch.start("db", "img", probe, Duration.ofMillis(5), sampler);
        MeasurementWindow window = watch.openWindow();
        probe.failWith(new ContainerGoneException("The cgroup of container 'db' is gone"));
        awaitCondition(() -> watch.goneReason().isPresent());

        // the sampler thread itself unschedules the last watch: it must not wait for its own termination
        assertTimeoutPreemptively(Duration.ofSeconds(3), () -> {
            assertThat(sampler.isRunning()).isFalse();
            assertThat(liveThreadsAfterJoin(name)).isEmpty();
            assertThat(window.close().timeline().readErrors()).isZero();
            watch.close();
        });
        assertThat(window.containerGoneReason()).isPresent();
        sampler.close();
    }

    @Test
    @DisplayName("a failing read on the sampler thread does not kill it")
    void failingReadKeepsSampling() throws Exception {
        String name = "vitals-errors-" + UUID.randomUUID();
        try (Sampler sampler = new Sampler(name)) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0));
            ContainerWatch watch = ContainerWatch.start("db", "img", probe, Duration.ofMillis(5), sampler);
            MeasurementWindow window = watch.openWindow();
            probe.failWith(new IllegalStateException("boom"));
            int before = probe.reads.get();
            awaitCondition(() -> probe.reads.get() >= before + 3);
            probe.set(Readings.atMillis(1));
            assertThat(window.close().timeline().readErrors()).isPositive();
            assertThat(sampler.isRunning()).isTrue();
            watch.close();
            assertThat(sampler.isRunning()).isFalse();
        }
        assertThat(liveThreadsAfterJoin(name)).isEmpty();
    }
}
