package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.Extra;
import io.vitals.internal.probe.ExtraKey;
import io.vitals.internal.probe.Extras;
import io.vitals.internal.probe.Fixtures;
import io.vitals.internal.probe.HostCgroupProbe;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadingSource;
import io.vitals.internal.probe.ResourceProbe;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Further reading sources stacked on the host cgroup probe of the recorded cgroup v1 container
 * (fixtures/cgroup-v1-hybrid), sampled through a {@link ContainerWatch} as the extension samples: a fake GPU
 * source stands in for the real one.
 */
@DisplayName("Reading sources stacked on the cgroup probe")
class StackedSourcesTests {

    /** The figures of the fake GPU source: one per call, so a test can tell a fresh figure from a carried one. */
    record FakeGpu(long call) {
    }

    static final ExtraKey<FakeGpu> GPU = ExtraKey.of("gpu", FakeGpu.class);

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T15:59:17Z"), ZoneOffset.UTC);
    private static final ContainerTarget TARGET = new ContainerTarget(Fixtures.V1_ID, "db", "vitals/base:bookworm",
            Fixtures.V1_PID, OptionalLong.of(268_435_456L));

    /** A GPU source that counts its calls and, when told to, fails its next one. */
    static final class FakeGpuSource implements ReadingSource {

        final AtomicLong calls = new AtomicLong();
        final List<ContainerTarget> targets = new CopyOnWriteArrayList<>();
        volatile Exception failNext;
        volatile boolean forgetNext;

        @Override
        public String name() {
            return "fake-gpu";
        }

        @Override
        public List<ExtraKey<?>> keys() {
            return List.of(GPU);
        }

        @Override
        public void contribute(ContainerTarget target, RawReading.Builder reading) throws ProbeException {
            long call = calls.incrementAndGet();
            targets.add(target);
            Exception failure = failNext;
            if (failure != null) {
                failNext = null;
                if (failure instanceof ProbeException probeException) {
                    throw probeException;
                }
                throw (RuntimeException) failure;
            }
            if (forgetNext) {
                forgetNext = false;
                return;
            }
            reading.extra(GPU, new FakeGpu(call));
        }
    }

    /** A copy of the recorded tree: opening a window resets the high-water mark, which writes a file. */
    @TempDir
    Path temp;

    private ProbeFactory factory(List<ReadingSource> sources) {
        Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve(UUID.randomUUID().toString()));
        return new ProbeFactory(new CgroupLocator(root), root.resolve("proc"), CLOCK, () -> {
            throw new AssertionError("the host probe must not need the engine");
        }, sources);
    }

    /** The recorded container's cgroup figures, which every reading must keep. */
    private static void assertCgroupFigures(RawReading reading) {
        assertThat(reading.cpu().totalNanos()).isEqualTo(422_699_666L);
        assertThat(reading.memory().chargedBytes()).isEqualTo(43_745_280L);
        assertThat(reading.memory().limitBytes()).hasValue(268_435_456L);
        assertThat(reading.pids().current()).isEqualTo(2);
        assertThat(reading.network().receivedBytes()).isEqualTo(696);
        assertThat(reading.pressure()).isPresent();
    }

    @Test
    @DisplayName("the source's figure is in the reading of every sample, fresh on full reads, carried on fast ones")
    void everySample() throws Exception {
        FakeGpuSource source = new FakeGpuSource();
        List<RawReading> samples = new CopyOnWriteArrayList<>();
        ResourceUsage usage;
        try (Sampler sampler = new Sampler("vitals-stack-" + UUID.randomUUID());
                ResourceProbe probe = factory(List.of(source)).open(TARGET, ProbeMode.HOST_CGROUP)) {
            // 50 ms: a full read every 20th tick, fast reads in between
            ContainerWatch watch = new ContainerWatch("db", "img", probe, Duration.ofMillis(50), sampler);
            MeasurementWindow window = watch.openWindow();
            window.onReading(samples::add);
            for (int tick = 0; tick < 45; tick++) {
                watch.sampleOnce();
            }
            usage = window.close();
        }
        assertThat(samples).hasSize(45);
        for (int tick = 0; tick < samples.size(); tick++) {
            RawReading reading = samples.get(tick);
            assertCgroupFigures(reading);
            // the window's start reading was call 1; ticks 20 and 40 (index 19 and 39) are full reads
            long expectedCall = tick < 19 ? 1 : tick < 39 ? 2 : 3;
            assertThat(reading.extra(GPU).value()).as("tick %d", tick + 1).contains(new FakeGpu(expectedCall));
        }
        assertThat(source.calls).hasValue(4); // start, ticks 20 and 40, end
        assertThat(source.targets).containsOnly(TARGET);
        assertThat(usage.timeline().readErrors()).isZero();
        assertThat(usage.after().memoryCharged().toBytes()).isEqualTo(43_745_280L);
    }

    @Test
    @DisplayName("a source that throws keeps the base reading; its figure is unavailable for that sample, with why")
    void failingSource() throws Exception {
        FakeGpuSource source = new FakeGpuSource();
        try (ResourceProbe probe = factory(List.of(source)).open(TARGET, ProbeMode.HOST_CGROUP)) {
            source.failNext = new IllegalStateException("NVML_ERROR_GPU_IS_LOST");
            RawReading failed = probe.read();
            assertCgroupFigures(failed);
            Extra<FakeGpu> gpu = failed.extra(GPU);
            assertThat(gpu.isAvailable()).isFalse();
            assertThat(gpu.value()).isEmpty();
            assertThat(gpu.reason()).hasValueSatisfying(reason -> assertThat(reason).startsWith("fake-gpu: ")
                    .contains("IllegalStateException").contains("NVML_ERROR_GPU_IS_LOST"));
            // a fast read after the failure carries "unavailable" over, not a stale or zero figure
            assertThat(probe.readFast(failed).extra(GPU)).isEqualTo(gpu);

            RawReading next = probe.read(); // the next sample asks again
            assertCgroupFigures(next);
            assertThat(next.extra(GPU).value()).contains(new FakeGpu(2));
        }
    }

    @Test
    @DisplayName("a failing source costs a ContainerWatch no sample and no read error")
    void failingSourceInTheSampler() throws Exception {
        FakeGpuSource source = new FakeGpuSource();
        List<RawReading> samples = new CopyOnWriteArrayList<>();
        try (Sampler sampler = new Sampler("vitals-stack-" + UUID.randomUUID());
                ResourceProbe probe = factory(List.of(source)).open(TARGET, ProbeMode.HOST_CGROUP)) {
            // 1 s: every tick is a full read, so every tick asks the source
            ContainerWatch watch = new ContainerWatch("db", "img", probe, Duration.ofSeconds(1), sampler);
            MeasurementWindow window = watch.openWindow();
            window.onReading(samples::add);
            watch.sampleOnce();
            source.failNext = new ProbeException("nvidia-smi timed out");
            watch.sampleOnce();
            watch.sampleOnce();
            ResourceUsage usage = window.close();
            assertThat(usage.timeline().readErrors()).isZero();
        }
        assertThat(samples).hasSize(3).allSatisfy(StackedSourcesTests::assertCgroupFigures);
        assertThat(samples).extracting(r -> r.extra(GPU).isAvailable()).containsExactly(true, false, true);
        assertThat(samples.get(1).extra(GPU).reason()).contains("fake-gpu: nvidia-smi timed out");
    }

    @Test
    @DisplayName("a source that adds nothing under its key reads as unavailable, never as a zero figure")
    void forgottenKey() throws Exception {
        FakeGpuSource source = new FakeGpuSource();
        source.forgetNext = true;
        try (ResourceProbe probe = factory(List.of(source)).open(TARGET, ProbeMode.HOST_CGROUP)) {
            RawReading reading = probe.read();
            assertThat(reading.extra(GPU).reason()).contains("fake-gpu gave no gpu figures");
            assertCgroupFigures(reading);
        }
    }

    @Test
    @DisplayName("without sources the base probe is used as it is, and readings carry no extras")
    void noSources() throws Exception {
        try (ResourceProbe probe = factory(List.of()).open(TARGET, ProbeMode.HOST_CGROUP)) {
            assertThat(probe).isInstanceOf(HostCgroupProbe.class);
            RawReading reading = probe.read();
            assertThat(reading.extras()).isSameAs(Extras.NONE);
            assertThat(reading.extra(GPU).reason()).contains("gpu not measured: no source adds it");
        }
    }

    @Test
    @DisplayName("two sources adding the same group are refused before any probe opens")
    void duplicateKeys() {
        assertThatThrownBy(() -> factory(List.of(new FakeGpuSource(), new FakeGpuSource())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'gpu'");
    }

    @Test
    @DisplayName("a figure of the wrong type cannot be put under a key")
    void wrongType() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        ExtraKey<Object> raw = (ExtraKey) GPU;
        RawReading.Builder builder = RawReading.builder();
        assertThatThrownBy(() -> builder.extra(raw, "not a FakeGpu")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FakeGpu");
    }
}
