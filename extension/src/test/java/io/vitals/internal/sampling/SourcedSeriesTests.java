package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;

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
        return SourcedFigures.builder().set(Metric.MAJOR_PAGE_FAULTS, faults)
                .set(Metric.PEAK_ANONYMOUS_MEMORY, anonMiB * MIB).set(Metric.PEAK_PAGE_CACHE, 10 * MIB)
                .set(Metric.PEAK_SHARED_MEMORY, 2 * MIB)
                .unavailable(Metric.PEAK_KERNEL_MEMORY, "this host has no memory.kmem.usage_in_bytes").build();
    }

    @Test
    @DisplayName("major page faults are the end reading minus the start one; the composition is the peak's")
    void deltaAndAtPeak() throws Exception {
        try (Sampler sampler = new Sampler("vitals-sourced-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0).memoryMiB(100).sourced(read(1000, 80)));
            ContainerWatch watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
            MeasurementWindow window = watch.openWindow();
            probe.set(Readings.atMillis(50).memoryMiB(500).sourced(read(1200, 470)));
            watch.sampleOnce();
            probe.set(Readings.atMillis(100).memoryMiB(300).sourced(read(1300, 270)));
            watch.sampleOnce();
            probe.set(Readings.atMillis(150).memoryMiB(200).sourced(read(1342, 170)));

            ResourceUsage usage = window.close();

            assertThat(usage.majorPageFaults()).hasValue(342);
            assertThat(usage.peakAnonymousMemory()).hasValue(DataSize.ofMiB(470));
            assertThat(usage.peakSharedMemory()).hasValue(DataSize.ofMiB(2));
            assertThat(usage.peakKernelMemory()).isEmpty();
            assertThat(usage.sourcedFigures().reason(Metric.PEAK_KERNEL_MEMORY))
                    .hasValue("this host has no memory.kmem.usage_in_bytes");
            assertThat(usage.sourcedFigures().atPeak()).hasValueSatisfying(at -> {
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
        try (Sampler sampler = new Sampler("vitals-sourced-phase-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0).memoryMiB(100).sourced(read(0, 80)));
            ContainerWatch watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
            MeasurementWindow window = watch.openWindow();
            probe.set(Readings.atMillis(50).memoryMiB(600).sourced(read(10, 570)));
            watch.sampleOnce();
            probe.set(Readings.atMillis(100).memoryMiB(150).sourced(read(20, 120)));
            window.mark("evaluate");
            probe.set(Readings.atMillis(150).memoryMiB(300).sourced(read(25, 270)));
            watch.sampleOnce();
            probe.set(Readings.atMillis(200).memoryMiB(200).sourced(read(26, 170)));

            ResourceUsage evaluate = window.close().phase("evaluate").orElseThrow().usage();

            assertThat(evaluate.majorPageFaults()).hasValue(6);
            assertThat(evaluate.peakAnonymousMemory()).hasValue(DataSize.ofMiB(270));
            assertThat(evaluate.sourcedFigures().atPeak().orElseThrow().offset()).isEqualTo(Duration.ofMillis(50));
        }
    }

    @Test
    @DisplayName("a fast read above the last full read's working set by more than 1/64 is followed by a full read")
    void newHighCostsAFullRead() throws Exception {
        try (Sampler sampler = new Sampler("vitals-sourced-high-" + UUID.randomUUID())) {
            FakeProbe probe = new FakeProbe(Readings.atMillis(0).memoryMiB(640).sourced(read(0, 600)));
            ContainerWatch watch = new ContainerWatch("a", "img", probe, Duration.ofMillis(50), sampler);
            watch.openWindow();
            int fullAtStart = probe.reads.get() - probe.fastReads.get();

            probe.set(Readings.atMillis(50).memoryMiB(649).sourced(read(0, 609))); // +9 MiB: under 640/64
            watch.sampleOnce();
            int afterSmallRise = probe.reads.get() - probe.fastReads.get();
            probe.set(Readings.atMillis(100).memoryMiB(660).sourced(read(0, 620))); // +20 MiB: a new high
            watch.sampleOnce();
            int afterNewHigh = probe.reads.get() - probe.fastReads.get();
            probe.set(Readings.atMillis(150).memoryMiB(500).sourced(read(0, 460)));
            watch.sampleOnce();

            assertThat(afterSmallRise).isEqualTo(fullAtStart);
            assertThat(afterNewHigh).isEqualTo(fullAtStart + 1);
            assertThat(probe.reads.get() - probe.fastReads.get()).isEqualTo(fullAtStart + 1);
        }
    }
}
