package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Windows over a {@link FakeProbe} and a real {@link Sampler}. The sampler's interval is an hour, so its thread never
 * reads on its own; each tick is {@link ContainerWatch#sampleOnce()} called by the test, which makes every figure
 * deterministic.
 */
@DisplayName("MeasurementWindow")
class MeasurementWindowTests {

    private static final long MIB = Readings.MIB;
    private static final long SECOND = 1_000_000_000L;

    private Sampler sampler;
    private FakeProbe probe;
    private ContainerWatch watch;

    @BeforeEach
    void start() {
        sampler = new Sampler("vitals-window-test");
        probe = new FakeProbe(Readings.atMillis(0).memoryMiB(100));
        watch = ContainerWatch.start("db", "postgres:16", probe, Duration.ofHours(1), sampler);
    }

    @AfterEach
    void stop() {
        watch.close();
        sampler.close();
    }

    /** Scripts the container's state at {@code seconds}, then lets the sampler take one reading. */
    private void tick(Readings state) {
        probe.set(state);
        watch.sampleOnce();
    }

    private static Readings at(double seconds) {
        return Readings.at(Math.round(seconds * SECOND));
    }

    @Test
    @DisplayName("two windows on one container get their own deltas and peaks (no bleed)")
    void noBleed() throws ProbeException {
        MeasurementWindow first = watch.openWindow();
        tick(at(1).cpu(SECOND).memoryMiB(400).io(100, 0).net(10, 0)); // a spike only the first window sees
        tick(at(2).cpu(SECOND * 3 / 2).memoryMiB(100).io(100, 0).net(10, 0));
        probe.set(at(2.5).cpu(SECOND * 3 / 2).memoryMiB(100).io(100, 0).net(10, 0));
        MeasurementWindow second = watch.openWindow();
        tick(at(3).cpu(SECOND * 5 / 2).memoryMiB(150).io(1100, 0).net(60, 0));
        probe.set(at(4).cpu(3 * SECOND).memoryMiB(120).io(1100, 0).net(60, 0));
        ResourceUsage secondUsage = second.close();
        tick(at(4.5).cpu(4 * SECOND).memoryMiB(130).io(1100, 0).net(60, 0));
        probe.set(at(5).cpu(4 * SECOND).memoryMiB(100).io(1100, 0).net(60, 0));
        ResourceUsage firstUsage = first.close();

        assertThat(secondUsage.wallTime()).isEqualTo(Duration.ofMillis(1500));
        assertThat(secondUsage.cpuTime()).isEqualTo(Duration.ofMillis(1500));
        assertThat(secondUsage.blockRead()).isEqualTo(DataSize.ofBytes(1000));
        assertThat(secondUsage.networkReceived()).isEqualTo(DataSize.ofBytes(50));
        assertThat(secondUsage.peakMemory()).isEqualTo(DataSize.ofMiB(150));
        assertThat(secondUsage.peak().at()).isEqualTo(Duration.ofMillis(500));

        assertThat(firstUsage.wallTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(firstUsage.cpuTime()).isEqualTo(Duration.ofSeconds(4));
        assertThat(firstUsage.blockRead()).isEqualTo(DataSize.ofBytes(1100));
        assertThat(firstUsage.networkReceived()).isEqualTo(DataSize.ofBytes(60));
        assertThat(firstUsage.peakMemory()).isEqualTo(DataSize.ofMiB(400));
        assertThat(firstUsage.peak().at()).isEqualTo(Duration.ofSeconds(1));

        assertThat(probe.resets.get()).isEqualTo(2); // each window restarts the kernel mark
        assertThat(first.close()).isSameAs(firstUsage); // closing twice returns the same figures
    }

    @Test
    @DisplayName("a closed window takes no more readings")
    void closedIsDetached() throws ProbeException {
        MeasurementWindow window = watch.openWindow();
        probe.set(at(1).memoryMiB(110));
        ResourceUsage usage = window.close();
        tick(at(2).memoryMiB(900));
        assertThat(window.close().peakMemory()).isEqualTo(DataSize.ofMiB(110));
        assertThat(usage.timeline().points()).hasSize(2);
    }

    @Test
    @DisplayName("the kernel high-water mark is reported only when the reset worked")
    void highWaterMark() throws ProbeException {
        probe.set(at(0).memoryMiB(100).highWaterMark(100 * MIB));
        MeasurementWindow window = watch.openWindow();
        probe.set(at(1).memoryMiB(100).highWaterMark(333 * MIB));
        assertThat(window.close().peakMemoryHighWaterMark()).contains(DataSize.ofMiB(333));

        probe.resettable = false;
        probe.set(at(2).memoryMiB(100).highWaterMark(100 * MIB));
        MeasurementWindow unreset = watch.openWindow();
        probe.set(at(3).memoryMiB(100).highWaterMark(333 * MIB));
        assertThat(unreset.close().peakMemoryHighWaterMark()).isEmpty();
    }

    @Test
    @DisplayName("without a reset, the lifetime mark counts for the first window of a container started for it")
    void lifetimeHighWaterMark() throws ProbeException {
        probe.resettable = false;
        try (ContainerWatch own = ContainerWatch.start("db", "postgres:16", probe, Duration.ofHours(1), sampler,
                true)) {
            probe.set(at(0).memoryMiB(100).highWaterMark(120 * MIB));
            MeasurementWindow first = own.openWindow();
            probe.set(at(1).memoryMiB(100).highWaterMark(333 * MIB));
            assertThat(first.close().peakMemoryHighWaterMark()).contains(DataSize.ofMiB(333));

            // a second window on the same container did not see its whole life: its mark is no per-window figure
            MeasurementWindow second = own.openWindow();
            probe.set(at(2).memoryMiB(100).highWaterMark(333 * MIB));
            assertThat(second.close().peakMemoryHighWaterMark()).isEmpty();
        }
    }

    @Test
    @DisplayName("mark() splits the window into phases with their own figures")
    void phases() throws ProbeException {
        MeasurementWindow window = watch.openWindow();
        probe.set(at(1).cpu(SECOND / 5).memoryMiB(100).io(10, 0));
        window.mark("load");
        tick(at(2).cpu(SECOND).memoryMiB(300).io(510, 0));
        probe.set(at(3).cpu(SECOND * 6 / 5).memoryMiB(120).io(1010, 0));
        window.mark("query");
        tick(at(3.5).cpu(SECOND * 3 / 2).memoryMiB(180).io(1010, 0));
        probe.set(at(4).cpu(SECOND * 17 / 10).memoryMiB(110).io(1010, 0));
        ResourceUsage usage = window.close();

        assertThat(usage.phases()).extracting(ResourceUsage.Phase::name).containsExactly("load", "query");
        ResourceUsage.Phase load = usage.phase("load").orElseThrow();
        assertThat(load.start()).isEqualTo(Duration.ofSeconds(1));
        assertThat(load.usage().wallTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(load.usage().cpuTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(load.usage().blockRead()).isEqualTo(DataSize.ofBytes(1000));
        assertThat(load.usage().peakMemory()).isEqualTo(DataSize.ofMiB(300));

        ResourceUsage.Phase query = usage.phase("query").orElseThrow();
        assertThat(query.start()).isEqualTo(Duration.ofSeconds(3));
        assertThat(query.usage().wallTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(query.usage().cpuTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(query.usage().blockRead()).isEqualTo(DataSize.ZERO);
        assertThat(query.usage().peakMemory()).isEqualTo(DataSize.ofMiB(180));

        assertThat(usage.cpuTime()).isEqualTo(Duration.ofMillis(1700));
        assertThat(usage.peakMemory()).isEqualTo(DataSize.ofMiB(300));
        assertThat(usage.phase("missing")).isEmpty();
    }

    @Test
    @DisplayName("usageSoFar() reports without closing")
    void soFar() throws ProbeException {
        MeasurementWindow window = watch.openWindow();
        probe.set(at(1).cpu(SECOND / 2));
        assertThat(window.usageSoFar().cpuTime()).isEqualTo(Duration.ofMillis(500));
        probe.set(at(2).cpu(SECOND));
        assertThat(window.close().cpuTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(window.usageSoFar().cpuTime()).isEqualTo(Duration.ofSeconds(1));
    }

    @Nested
    @DisplayName("when the container goes away")
    class Gone {

        @Test
        @DisplayName("mid-window, the figures up to then are kept")
        void midWindow() throws ProbeException {
            MeasurementWindow window = watch.openWindow();
            tick(at(1).cpu(SECOND).memoryMiB(250).io(42, 7));
            probe.failWith(new ContainerGoneException("The cgroup of container 'db' is gone"));
            watch.sampleOnce();
            watch.sampleOnce(); // no more reads once gone
            ResourceUsage usage = window.close();

            assertThat(window.containerGoneReason()).contains("The cgroup of container 'db' is gone");
            assertThat(watch.goneReason()).isPresent();
            assertThat(probe.reads.get()).isEqualTo(3); // open, tick, the failing sample; close reads nothing
            assertThat(usage.wallTime()).isEqualTo(Duration.ofSeconds(1));
            assertThat(usage.cpuTime()).isEqualTo(Duration.ofSeconds(1));
            assertThat(usage.blockRead()).isEqualTo(DataSize.ofBytes(42));
            assertThat(usage.peakMemory()).isEqualTo(DataSize.ofMiB(250));
            assertThat(usage.after().cpuTime()).isEqualTo(Duration.ofSeconds(1));
            assertThat(usage.timeline().readErrors()).isZero();
            assertThat(sampler.watchedContainers()).isZero();
        }

        @Test
        @DisplayName("at the closing read, the last reading ends the window")
        void atClose() throws ProbeException {
            MeasurementWindow window = watch.openWindow();
            tick(at(2).cpu(2 * SECOND));
            probe.failWith(new ContainerGoneException("gone"));
            ResourceUsage usage = window.close();
            assertThat(usage.cpuTime()).isEqualTo(Duration.ofSeconds(2));
            assertThat(window.containerGoneReason()).contains("gone");
        }

        @Test
        @DisplayName("between samples, the check at the window's end finds it, with the moment it was found")
        void betweenSamples() throws ProbeException {
            AtomicLong clock = new AtomicLong();
            ContainerWatch scripted = new ContainerWatch("db", "postgres:16", probe, Duration.ofHours(1), sampler,
                    false, clock::get);
            MeasurementWindow window = scripted.openWindow(); // the reading at 0 s
            probe.set(at(0.8).cpu(SECOND)); // files still read while the init process exits
            probe.goneNow = Optional.of("The init process (host PID 4242) of container 'db' is a zombie");
            clock.set(Math.round(0.85 * SECOND));
            ResourceUsage usage = window.close();

            assertThat(window.containerGoneReason()).contains(
                    "The init process (host PID 4242) of container 'db' is a zombie");
            assertThat(window.containerGoneAt()).contains(Duration.ofMillis(850));
            assertThat(usage.wallTime()).isEqualTo(Duration.ofMillis(800));
            assertThat(probe.livenessChecks.get()).isEqualTo(1);
        }

        @Test
        @DisplayName("a living container is asked once, at the window's end, and stays watched")
        void aliveAtClose() throws ProbeException {
            MeasurementWindow window = watch.openWindow();
            tick(at(1).cpu(SECOND));
            probe.set(at(2).cpu(SECOND));
            window.usageSoFar();
            window.close();
            assertThat(probe.livenessChecks.get()).isEqualTo(1);
            assertThat(window.containerGoneReason()).isEmpty();
            assertThat(window.containerGoneAt()).isEmpty();
        }

        @Test
        @DisplayName("gone before the first sample: the timeline holds the start once, not copies of it at 0 ns")
        void goneBeforeFirstSample() throws ProbeException {
            MeasurementWindow window = watch.openWindow();
            probe.failWith(new ContainerGoneException("Container 'db' is no longer running"));
            window.usageSoFar();
            window.mark("late");
            ResourceUsage usage = window.close();
            assertThat(usage.timeline().points()).extracting(io.vitals.TimelinePoint::offset)
                    .containsExactly(Duration.ZERO);
            assertThat(window.containerGoneAt()).isPresent();
        }

        @Test
        @DisplayName("a window opened after the container went away fails")
        void openAfterGone() throws ProbeException {
            probe.failWith(new ContainerGoneException("gone"));
            org.assertj.core.api.Assertions.assertThatThrownBy(watch::openWindow)
                    .isInstanceOf(ContainerGoneException.class);
        }
    }

    @Test
    @DisplayName("read errors are counted, for every open window, and do not end the window")
    void readErrors() throws ProbeException {
        MeasurementWindow first = watch.openWindow();
        MeasurementWindow second = watch.openWindow();
        probe.failNextWith(new ProbeException("Cannot read memory.stat"));
        watch.sampleOnce();
        probe.failNextWith(new IllegalStateException("unexpected"));
        watch.sampleOnce();
        tick(at(1).cpu(SECOND).memoryMiB(200));
        probe.failNextWith(new ProbeException("Cannot read memory.stat")); // the closing read of the first
        ResourceUsage firstUsage = first.close();
        probe.set(at(2).cpu(2 * SECOND));
        ResourceUsage secondUsage = second.close();

        assertThat(firstUsage.timeline().readErrors()).isEqualTo(3);
        assertThat(firstUsage.cpuTime()).isEqualTo(Duration.ofSeconds(1)); // ends at the last good reading
        assertThat(firstUsage.peakMemory()).isEqualTo(DataSize.ofMiB(200));
        assertThat(secondUsage.timeline().readErrors()).isEqualTo(2);
        assertThat(secondUsage.cpuTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(watch.goneReason()).isEmpty();
    }
}
