package io.vitals.internal.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.vitals.Energy;
import io.vitals.GpuUsage;
import io.vitals.internal.probe.CpuReading;
import io.vitals.internal.probe.Extra;
import io.vitals.internal.probe.RawReading;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** nvidia-smi's CSV on several drivers, attributed to a container by its PIDs, and summed up over a window. */
class NvidiaSmiTests {

    static String fixture(String name) {
        try (InputStream in = NvidiaSmiTests.class.getResourceAsStream("/gpu/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static GpuAttribution.Query query(long at, String gpus, String apps) {
        return new GpuAttribution.Query(at, NvidiaSmiOutput.devices(fixture(gpus)),
                NvidiaSmiOutput.processes(fixture(apps)), "nvidia-smi");
    }

    @Nested
    @DisplayName("parsing")
    class Parsing {

        @Test
        @DisplayName("a 535 driver: every field")
        void driver535() {
            assertThat(NvidiaSmiOutput.devices(fixture("gpus-535.csv"))).singleElement().satisfies(d -> {
                assertThat(d.uuid()).startsWith("GPU-5f1c2d3e");
                assertThat(d.utilizationPercent()).hasValue(87);
                assertThat(d.powerWatts()).hasValue(231.45);
                assertThat(d.memoryTotalMiB()).hasValue(81559);
            });
        }

        @Test
        @DisplayName("a 470 driver: power [Not Supported] is empty, not zero")
        void driver470() {
            assertThat(NvidiaSmiOutput.devices(fixture("gpus-470.csv"))).singleElement()
                    .satisfies(d -> assertThat(d.powerWatts()).isEmpty());
        }

        @Test
        @DisplayName("MIG: [N/A] utilisation and used_memory are empty")
        void mig() {
            assertThat(NvidiaSmiOutput.devices(fixture("gpus-mig.csv"))).singleElement()
                    .satisfies(d -> assertThat(d.utilizationPercent()).isEmpty());
            assertThat(NvidiaSmiOutput.processes(fixture("apps-mig.csv"))).singleElement()
                    .satisfies(p -> assertThat(p.usedMemoryBytes()).isEmpty());
        }

        @Test
        @DisplayName("no processes: none, whether the driver prints nothing or 'No running processes found'")
        void noProcesses() {
            assertThat(NvidiaSmiOutput.processes(fixture("apps-none.csv"))).isEmpty();
            assertThat(NvidiaSmiOutput.processes("")).isEmpty();
        }

        @Test
        @DisplayName("a changed format fails, quoting the line, rather than reading as an idle GPU")
        void changedFormat() {
            assertThatThrownBy(() -> NvidiaSmiOutput.processes("4242, 1234\n"))
                    .hasMessage("Unexpected nvidia-smi line '4242, 1234': expected 3 fields (pid,used_memory,gpu_uuid)");
        }
    }

    @Nested
    @DisplayName("attribution")
    class Attribution {

        @Test
        @DisplayName("the container's PIDs only; another process on the device makes it shared")
        void ownPids() {
            Extra<GpuReading> gpu = GpuAttribution.attribute(query(1, "gpus-535.csv", "apps-535.csv"),
                    Set.of(1L, 4242L));
            assertThat(gpu.value()).hasValueSatisfying(r -> {
                assertThat(r.usedMemoryBytes()).isEqualTo(1234L * 1024 * 1024);
                assertThat(r.processes()).isEqualTo(1);
                assertThat(r.shared()).isTrue();
                assertThat(r.utilizationPercent()).hasValue(87);
            });
        }

        @Test
        @DisplayName("a PID not in the container, or one that exited between the two queries, is not counted")
        void pidNotInContainer() {
            // 31337 is listed by the process query but left the cgroup before cgroup.procs was read
            Extra<GpuReading> gpu = GpuAttribution.attribute(query(1, "gpus-535.csv", "apps-exited.csv"),
                    Set.of(4242L));
            assertThat(gpu.value()).hasValueSatisfying(r -> assertThat(r.usedMemoryBytes())
                    .isEqualTo(1234L * 1024 * 1024));
        }

        @Test
        @DisplayName("a container without GPU processes: no GPU visible, not zero")
        void noGpuProcess() {
            Extra<GpuReading> gpu = GpuAttribution.attribute(query(1, "gpus-535.csv", "apps-none.csv"),
                    Set.of(4242L));
            assertThat(gpu.value()).isEmpty();
            assertThat(gpu.reason()).hasValueSatisfying(r -> assertThat(r).startsWith(GpuUsage.NO_GPU_VISIBLE));
        }

        @Test
        @DisplayName("no GPU at all: no GPU visible")
        void noGpu() {
            Extra<GpuReading> gpu = GpuAttribution.attribute(new GpuAttribution.Query(1, List.of(), List.of(), "nvidia-smi"),
                    Set.of(4242L));
            assertThat(gpu.reason()).hasValue("no GPU visible: nvidia-smi lists no GPU");
        }
    }

    @Nested
    @DisplayName("a window")
    class Window {

        private RawReading reading(Extra<GpuReading> gpu) {
            return RawReading.builder().at(0, java.time.Instant.EPOCH).cpu(CpuReading.builder().build())
                    .memory(io.vitals.internal.probe.MemoryReading.builder().build())
                    .pids(new io.vitals.internal.probe.PidsReading(1, java.util.OptionalLong.empty()))
                    .blockIo(new io.vitals.internal.probe.BlockIoReading(0, 0))
                    .network(new io.vitals.internal.probe.NetworkReading(0, 0))
                    .sourced(io.vitals.internal.metric.SourcedFigures.absent("not in this fixture"))
                    .extra(GpuReading.KEY, gpu).build();
        }

        private static GpuReading sample(long atMillis, long mib, double util, double watts) {
            return new GpuReading(atMillis * 1_000_000, mib * 1024 * 1024, 1, List.of("GPU-x"), false,
                    OptionalDouble.empty(), new DeviceFigures(OptionalDouble.of(util), OptionalDouble.empty(),
                            OptionalDouble.of(watts), OptionalDouble.empty(), OptionalDouble.empty(),
                            OptionalDouble.empty()));
        }

        // as NVML gives it: the container's SM share and the device's energy counter (joules since the driver loaded)
        private static GpuReading counted(long atMillis, double sm, double counterJoules) {
            return new GpuReading(atMillis * 1_000_000, 100L << 20, 1, List.of("GPU-x"), false, OptionalDouble.of(sm),
                    new DeviceFigures(OptionalDouble.of(90), OptionalDouble.of(20), OptionalDouble.of(250),
                            OptionalDouble.of(61), OptionalDouble.of(1410), OptionalDouble.of(counterJoules)));
        }

        @Test
        @DisplayName("with NVML: energy is the counters' difference, not integrated; the SM share is averaged")
        void energyCounter() {
            GpuWindow window = new GpuWindow();
            window.add(Duration.ZERO, reading(Extra.of(counted(0, 30, 1_000_000))));
            window.add(Duration.ofMillis(1000), reading(Extra.of(counted(1000, 50, 1_000_180))));
            window.add(Duration.ofMillis(2000), reading(Extra.of(counted(2000, 40, 1_000_420.5))));

            GpuUsage usage = window.usage();

            // integrating 250 W over 2 s would say 500 J
            assertThat(usage.energy()).hasValue(Energy.ofJoules(420.5));
            assertThat(usage.energyFromCounter()).isTrue();
            assertThat(usage.describeEnergyMethod()).startsWith("the difference of the energy counters of the GPU GPU-x");
            assertThat(usage.averageSmUtilization()).hasValueSatisfying(p -> assertThat(p.value()).isCloseTo(40,
                    within(1e-9)));
        }

        @Test
        @DisplayName("peak, average and energy integrated from power; a repeated query counts once")
        void summary() {
            GpuWindow window = new GpuWindow();
            window.add(Duration.ZERO, reading(Extra.of(sample(0, 100, 50, 100))));
            window.add(Duration.ofMillis(50), reading(Extra.of(sample(0, 100, 50, 100)))); // carried over
            window.add(Duration.ofMillis(500), reading(Extra.of(sample(500, 300, 100, 300))));
            window.add(Duration.ofMillis(1000), reading(Extra.of(sample(1000, 200, 90, 100))));

            GpuUsage usage = window.usage();

            assertThat(usage.samples()).isEqualTo(3);
            assertThat(usage.peakMemory()).hasValueSatisfying(m -> assertThat(m.toBytes()).isEqualTo(300L << 20));
            assertThat(usage.averageUtilization()).hasValueSatisfying(p -> assertThat(p.value()).isCloseTo(80,
                    within(1e-9)));
            // 0.5 s * 200 W + 0.5 s * 200 W
            assertThat(usage.energy()).hasValue(Energy.ofJoules(200));
            assertThat(usage.energyFromCounter()).isFalse();
            assertThat(usage.averageSmUtilization()).as("nvidia-smi has no per-process samples").isEmpty();
        }

        @Test
        @DisplayName("no GPU sample: unavailable with the source's reason")
        void unavailable() {
            GpuWindow window = new GpuWindow();
            window.add(Duration.ZERO, reading(Extra.unavailable("no GPU visible: nvidia-smi does not run here")));

            assertThat(window.usage().unavailableReason()).hasValue("no GPU visible: nvidia-smi does not run here");
            assertThat(window.usage().absence()).isEqualTo("no GPU visible");
        }
    }
}
