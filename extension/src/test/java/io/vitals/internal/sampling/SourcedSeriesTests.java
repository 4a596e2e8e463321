package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.testing.SourcedFixtures;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The generic calculator of sourced figures, through a real window on scripted readings: a counter is the end
 * reading minus the start one, the peak's composition comes from the fully read reading with the highest working
 * set, a figure the probe declared unavailable stays unavailable with its reason, and a new high of the working set
 * costs a full read so that the composition is read there.
 */
@DisplayName("Sourced figures in a window")
class SourcedSeriesTests {

    private static final long MIB = Readings.MIB;

    /** Figures as a full read finds them: {@code faults} major faults so far, {@code anon} MiB anonymous memory. */
    private static SourcedFigures read(long faults, long anonMiB) {
        return SourcedFixtures.every(1).set(Metric.MAJOR_PAGE_FAULTS, faults)
                .set(Metric.PEAK_ANONYMOUS_MEMORY, anonMiB * MIB).set(Metric.PEAK_PAGE_CACHE, 10 * MIB)
                .set(Metric.PEAK_SHARED_MEMORY, 2 * MIB)
                .unavailable(Metric.PEAK_KERNEL_MEMORY, "this host has no memory.kmem.usage_in_bytes").build();
    }

    /** A watch on a scripted probe: each {@link #sample} sets the probe's next reading and samples it. */
    private static final class Scripted implements AutoCloseable {

        final Sampler sampler = new Sampler("vitals-sourced-" + UUID.randomUUID());
        final FakeProbe probe;
        final ContainerWatch watch;

        Scripted(long memoryMiB, SourcedFigures figures) {
            probe = new FakeProbe(Readings.atMillis(0).memoryMiB(memoryMiB).sourced(figures));
            watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
        }

        /** The next reading, which the window's close reads if no sample follows. */
        void next(long millis, long memoryMiB, SourcedFigures figures) {
            probe.set(Readings.atMillis(millis).memoryMiB(memoryMiB).sourced(figures));
        }

        void sample(long millis, long memoryMiB, SourcedFigures figures) {
            next(millis, memoryMiB, figures);
            watch.sampleOnce();
        }

        int fullReads() {
            return probe.reads.get() - probe.fastReads.get();
        }

        @Override
        public void close() {
            sampler.close();
        }
    }

    @Test
    @DisplayName("major page faults are the end reading minus the start one; the composition is the peak's")
    void deltaAndAtPeak() throws Exception {
        try (Scripted scripted = new Scripted(100, read(1000, 80))) {
            MeasurementWindow window = scripted.watch.openWindow();
            scripted.sample(50, 500, read(1200, 470));
            scripted.sample(100, 300, read(1300, 270));
            scripted.next(150, 200, read(1342, 170));

            ResourceUsage usage = window.close();

            assertThat(usage.majorPageFaults()).hasValue(342);
            assertThat(usage.peakAnonymousMemory()).hasValue(DataSize.ofMiB(470));
            assertThat(usage.peakSharedMemory()).hasValue(DataSize.ofMiB(2));
            assertThat(usage.peakKernelMemory()).isEmpty();
            assertThat(SourcedFigures.of(usage).reason(Metric.PEAK_KERNEL_MEMORY))
                    .hasValue("this host has no memory.kmem.usage_in_bytes");
            assertThat(SourcedFigures.of(usage).atPeak()).hasValueSatisfying(at -> {
                assertThat(at.offset()).isEqualTo(Duration.ofMillis(50));
                assertThat(at.workingSetBytes()).isEqualTo(500 * MIB);
            });
            assertThat(Metric.PEAK_MEMORY.context(usage)).hasValueSatisfying(words -> assertThat(words)
                    .contains("at 500.0 MiB (50 ms): anonymous memory 470.0 MiB, page cache 10.0 MiB, "
                            + "shared memory 2.0 MiB, kernel memory not measured"));
        }
    }

    @Test
    @DisplayName("a phase has its own counter difference and its own peak's composition")
    void phases() throws Exception {
        try (Scripted scripted = new Scripted(100, read(0, 80))) {
            MeasurementWindow window = scripted.watch.openWindow();
            scripted.sample(50, 600, read(10, 570));
            scripted.next(100, 150, read(20, 120));
            window.mark("evaluate");
            scripted.sample(150, 300, read(25, 270));
            scripted.next(200, 200, read(26, 170));

            ResourceUsage evaluate = window.close().phase("evaluate").orElseThrow().usage();

            assertThat(evaluate.majorPageFaults()).hasValue(6);
            assertThat(evaluate.peakAnonymousMemory()).hasValue(DataSize.ofMiB(270));
            assertThat(SourcedFigures.of(evaluate).atPeak().orElseThrow().offset()).isEqualTo(Duration.ofMillis(50));
        }
    }

    @Test
    @DisplayName("a fast read above the last full read's working set by more than 1/64 is followed by a full read")
    void newHighCostsAFullRead() throws Exception {
        try (Scripted scripted = new Scripted(640, read(0, 600))) {
            scripted.watch.openWindow();
            int fullAtStart = scripted.fullReads();

            scripted.sample(50, 649, read(0, 609)); // +9 MiB: under 640/64
            int afterSmallRise = scripted.fullReads();
            scripted.sample(100, 660, read(0, 620)); // +20 MiB: a new high
            int afterNewHigh = scripted.fullReads();
            scripted.sample(150, 500, read(0, 460));

            assertThat(afterSmallRise).isEqualTo(fullAtStart);
            assertThat(afterNewHigh).isEqualTo(fullAtStart + 1);
            assertThat(scripted.fullReads()).isEqualTo(fullAtStart + 1);
        }
    }
}
