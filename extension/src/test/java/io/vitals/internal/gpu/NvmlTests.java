package io.vitals.internal.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.GpuUsage;
import io.vitals.internal.probe.Extra;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NVML binding: through a compiled stub of the library (real native calls), and through a Java fake. */
@DisplayName("NVML")
class NvmlTests {

    private static final long MIB = 1024 * 1024;

    @Nested
    @DisplayName("through a compiled libnvidia-ml.so.1 stub")
    class Stub {

        @TempDir
        Path dir;

        // the compiled stub, loaded, listing host PID {@code pid} as holding 1234 MiB on its board
        private Nvml stubListing(long pid) throws Exception {
            Path pidFile = dir.resolve("pid");
            Nvml nvml = Nvml.load(NvmlStub.compile(dir, pidFile).toString());
            Files.writeString(pidFile, Long.toString(pid));
            return nvml;
        }

        @Test
        @DisplayName("structures lay out as in nvml.h: every device figure and every process's bytes read exactly")
        void readsEveryFigure() throws Exception {
            Nvml nvml = stubListing(777);

            GpuAttribution.Query query = nvml.query(5);

            assertThat(query.queriedAtNanos()).isEqualTo(5);
            assertThat(query.driver()).startsWith("NVML (").endsWith("libnvidia-ml.so.1)");
            assertThat(query.devices()).hasSize(2);
            NvidiaSmiOutput.Device board = query.devices().get(0);
            assertThat(board.uuid()).isEqualTo("GPU-5f1c2d3e-8a9b-4c5d-9e0f-112233445566");
            assertThat(board.index()).isZero();
            assertThat(board.utilizationPercent()).hasValue(42);
            assertThat(board.memoryUtilizationPercent()).hasValue(10);
            assertThat(board.powerWatts()).hasValue(231.45);
            assertThat(board.memoryUsedMiB()).hasValue(1746);
            assertThat(board.memoryTotalMiB()).hasValue(81559);
            assertThat(board.temperatureCelsius()).hasValue(50);
            assertThat(board.smClockMHz()).hasValue(1500);
            NvidiaSmiOutput.Device mig = query.devices().get(1);
            assertThat(mig.uuid()).startsWith("MIG-");
            assertThat(mig.utilizationPercent()).as("NOT_SUPPORTED is empty, not 0").isEmpty();
            assertThat(mig.powerWatts()).isEmpty();
            assertThat(board.energyMillijoules()).hasValue(5_150_000);
            assertThat(mig.energyMillijoules()).isEmpty();
            // per-process SM shares: the board's samples averaged by PID; the MIG instance keeps none
            assertThat(query.smShares()).containsOnlyKeys(board.uuid());
            assertThat(query.smShares().get(board.uuid())).containsExactly(
                    new GpuAttribution.ProcessSm(777, board.uuid(), 40), new GpuAttribution.ProcessSm(1, board.uuid(), 10));
            assertThat(query.processes()).containsExactly(
                    new NvidiaSmiOutput.Process(777, java.util.OptionalLong.of(1234 * MIB), board.uuid()),
                    new NvidiaSmiOutput.Process(1, java.util.OptionalLong.of(512 * MIB + 7), board.uuid()),
                    new NvidiaSmiOutput.Process(4242, java.util.OptionalLong.empty(), mig.uuid()));
        }

        @Test
        @DisplayName("attributed to a container by its PIDs: its own bytes, the device's figures, shared with PID 1")
        void attributes() throws Exception {
            Nvml nvml = stubListing(777);

            Extra<GpuReading> gpu = GpuAttribution.attribute(nvml.query(1), Set.of(777L, 778L));

            assertThat(gpu.value()).hasValueSatisfying(r -> {
                assertThat(r.usedMemoryBytes()).isEqualTo(1234 * MIB);
                assertThat(r.processes()).isEqualTo(1);
                assertThat(r.shared()).isTrue();
                assertThat(r.utilizationPercent()).hasValue(42);
                assertThat(r.powerWatts()).hasValue(231.45);
                assertThat(r.smPercent()).as("the container's own share, without PID 1's").hasValue(40);
                assertThat(r.energyJoules()).hasValue(5_150);
            });
            // the next query asks for the samples after the newest one seen, and the counter has moved on
            GpuReading next = GpuAttribution.attribute(nvml.query(2), Set.of(777L)).value().orElseThrow();
            assertThat(next.smPercent()).hasValue(40);
            assertThat(next.energyJoules()).hasValue(5_300);
            assertThat(GpuAttribution.attribute(nvml.query(3), Set.of(999L)).reason()).hasValueSatisfying(r -> assertThat(r)
                    .startsWith(GpuUsage.NO_GPU_VISIBLE + " to this container").contains("GPU processes NVML ("));
        }

        @Test
        @DisplayName("auto takes NVML where the library loads, nvidia-smi where it does not")
        void autoPrefersNvml() throws Exception {
            Path library = NvmlStub.compile(dir, dir.resolve("pid"));

            assertThat(GpuSources.driver(GpuSources.Mode.AUTO, library.toString(), "nvidia-smi"))
                    .isInstanceOf(Nvml.class);
            assertThat(GpuSources.driver(GpuSources.Mode.NVIDIA_SMI, library.toString(), "nvidia-smi"))
                    .isInstanceOf(NvidiaSmi.class);
            // no library: nvidia-smi, and where that does not run either, the reason names both
            String missing = dir.resolve("missing.so.1").toString();
            GpuDriver fallback = GpuSources.driver(GpuSources.Mode.AUTO, missing, dir.resolve("no-smi").toString());
            assertThat(fallback.name()).isEqualTo(dir.resolve("no-smi").toString());
            assertThatThrownBy(() -> fallback.query(0)).isInstanceOf(IOException.class)
                    .hasMessageContaining("no-smi").hasMessageEndingWith("; NVML first: " + missing + " not found");
        }

        @Test
        @DisplayName("the library is looked for before JNA loads anything: a path, or a name on LD_LIBRARY_PATH")
        void lookedForFirst() throws Exception {
            Path library = NvmlStub.compile(dir, dir.resolve("pid"));

            assertThat(Nvml.present(library.toString(), null)).isTrue();
            assertThat(Nvml.present("libnvidia-ml.so.1", dir.toString())).isTrue();
            assertThat(Nvml.present("libnvidia-ml.so.1", "/nonexistent:" + dir)).isTrue();
            assertThat(Nvml.present("libnvidia-ml-other.so.1", dir.toString())).isFalse();
            assertThat(Nvml.present(dir.resolve("nothing.so").toString(), null)).isFalse();
        }
    }

    @Test
    @DisplayName("no library: nvml mode reads 'no GPU visible' with the loader's reason, never zeros")
    void missingLibrary(@TempDir Path dir) throws Exception {
        String missing = dir.resolve("libnvidia-ml.so.1").toString();
        assertThatThrownBy(() -> Nvml.load(missing)).isInstanceOf(IOException.class)
                .hasMessage(missing + " not found");

        GpuDriver driver = GpuSources.driver(GpuSources.Mode.NVML, missing, "nvidia-smi");
        GpuSource source = new GpuSource(driver, null, () -> 0);
        assertThat(source.query()).isEmpty();
        assertThat(source.name()).isEqualTo("NVML (" + missing + ")");
        // a source that never answered was not used: the probe line does not name it
        assertThat(source.answered()).isFalse();
    }

    @Test
    @DisplayName("the structures have nvml.h's sizes (the process entry has 4 bytes of padding after the pid)")
    void structureSizes() {
        assertThat(new NvmlLibrary.ProcessUtilizationSample().size()).isEqualTo(32);
        assertThat(new NvmlLibrary.Utilization().size()).isEqualTo(8);
        assertThat(new NvmlLibrary.Memory().size()).isEqualTo(24);
        assertThat(new NvmlLibrary.ProcessInfo().size()).isEqualTo(24);
    }

    @Nested
    @DisplayName("through a Java fake")
    class Fake {

        @Test
        @DisplayName("a process that starts between the count and the list: asked again with room, none lost")
        void processStartsBetweenCalls() throws IOException {
            FakeNvml fake = new FakeNvml();
            fake.processesNow = 1;
            fake.growBy = 9; // more than the spare room of the first list call: it must ask again

            GpuAttribution.Query query = new Nvml(fake, "fake").query(1);

            assertThat(query.processes()).hasSize(10).allSatisfy(p -> assertThat(p.usedMemoryBytes()).hasValue(MIB));
            assertThat(fake.listCalls).isEqualTo(3); // the count, the list that was too small, the list
        }

        @Test
        @DisplayName("an error other than NOT_SUPPORTED fails the query, naming the call and NVML's words")
        void errorNamesTheCall() {
            FakeNvml fake = new FakeNvml();
            fake.memoryResult = 15;

            assertThatThrownBy(() -> new Nvml(fake, "fake").query(1)).isInstanceOf(IOException.class)
                    .hasMessage("NVML (fake) nvmlDeviceGetMemoryInfo failed: GPU is lost (15)");
        }
    }

    /** One device; its process list grows by {@code growBy} after the first count. */
    static final class FakeNvml implements NvmlLibrary {
        int processesNow;
        int growBy;
        int listCalls;
        int memoryResult = SUCCESS;

        @Override
        public int nvmlInit_v2() {
            return SUCCESS;
        }

        @Override
        public String nvmlErrorString(int result) {
            return result == 15 ? "GPU is lost" : "error " + result;
        }

        @Override
        public int nvmlDeviceGetCount_v2(IntByReference count) {
            count.setValue(1);
            return SUCCESS;
        }

        @Override
        public int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device) {
            device.setValue(Pointer.createConstant(1));
            return SUCCESS;
        }

        @Override
        public int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length) {
            byte[] id = "GPU-fake".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            System.arraycopy(id, 0, uuid, 0, id.length);
            return SUCCESS;
        }

        @Override
        public int nvmlDeviceGetUtilizationRates(Pointer device, Utilization utilization) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetMemoryInfo(Pointer device, Memory memory) {
            return memoryResult;
        }

        @Override
        public int nvmlDeviceGetPowerUsage(Pointer device, IntByReference milliwatts) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetTemperature(Pointer device, int sensor, IntByReference celsius) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetClockInfo(Pointer device, int type, IntByReference megahertz) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetTotalEnergyConsumption(Pointer device, LongByReference millijoules) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetProcessUtilization(Pointer device, ProcessUtilizationSample[] samples,
                IntByReference count, long lastSeenTimeStamp) {
            return ERROR_NOT_SUPPORTED;
        }

        @Override
        public int nvmlDeviceGetComputeRunningProcesses_v3(Pointer device, IntByReference count, ProcessInfo[] infos) {
            listCalls++;
            int now = processesNow;
            if (listCalls == 1) {
                processesNow += growBy;
            }
            if (count.getValue() < now) {
                count.setValue(now);
                return ERROR_INSUFFICIENT_SIZE;
            }
            for (int i = 0; i < now; i++) {
                infos[i].pid = 100 + i;
                infos[i].usedGpuMemory = MIB;
            }
            count.setValue(now);
            return SUCCESS;
        }
    }
}
