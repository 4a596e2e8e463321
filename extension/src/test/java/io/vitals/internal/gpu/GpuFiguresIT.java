package io.vitals.internal.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.internal.result.ReportNames;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.junit.jupiter.Container;

/**
 * A GPU figure from the source to the budget and the reports, without a GPU: a fake {@code nvidia-smi}, or a
 * {@code libnvidia-ml.so.1} compiled from {@code src/test/c/nvml-stub.c} and called through JNA, attributes 1234 MiB
 * of GPU memory to the real host PID of one container, and nothing to another.
 */
@DisplayName("GPU figures, end to end, on a fake nvidia-smi and on a compiled NVML stub")
class GpuFiguresIT {

    /** Where the fixture writes its GPU container's host PID for the fake nvidia-smi to read. */
    static volatile Path pidFile;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "vitals.gpu={0}")
    @ValueSource(strings = {"nvidia_smi", "nvml"})
    @DisplayName("a GPU memory budget fails naming 1.2 GiB; JSON, summary.md and vitals.prom carry it; "
            + "a container without GPU processes reads 'no GPU visible'")
    void gpuFigures(String driver) throws Exception {
        pidFile = dir.resolve("pid");
        Map<String, String> config = new HashMap<>(Map.of("vitals.console", "off", "vitals.gpu", driver));
        if (driver.equals("nvml")) {
            // a compiled libnvidia-ml.so.1 that lists the PID in pidFile as holding 1234 MiB (src/test/c)
            config.put("vitals.gpu.nvml", NvmlStub.compile(dir, pidFile).toString());
        } else {
            Path smi = dir.resolve("nvidia-smi");
            Files.writeString(smi, "#!/bin/bash\n"
                    + "pid=$(cat '" + pidFile + "' 2>/dev/null)\n"
                    + "case \"$1\" in\n"
                    + "  --query-gpu=*) echo 'GPU-fake-0000, 0, 42, 10, 100.00, 2000, 81559, 50, 1500' ;;\n"
                    + "  --query-compute-apps=*) if [ -n \"$pid\" ]; then echo \"$pid, 1234, GPU-fake-0000\"; fi ;;\n"
                    + "  *) exit 2 ;;\n"
                    + "esac\n");
            Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwx------"));
            config.put("vitals.gpu.nvidiaSmi", smi.toString());
        }
        Path reports = dir.resolve("reports");

        config.put("vitals.reportDir", reports.toString());
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").configurationParameters(config)
                .selectors(selectClass(GpuTestCases.class)).execute();

        results.testEvents().assertStatistics(stats -> stats.failed(1));
        Throwable failure = results.testEvents().failed().list().get(0).getPayload(
                org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
        assertThat(failure.getMessage()).contains("peak GPU memory 1.2 GiB").contains("1GiB");

        Path classDir = reports.resolve(ReportNames.classDirectory(GpuTestCases.class.getName()));
        JsonNode json = new ObjectMapper().readTree(classDir.resolve("usesTheGpu.json").toFile());
        JsonNode gpu = null;
        JsonNode idle = null;
        for (JsonNode container : json.path("containers")) {
            if (container.path("name").asText().equals("gpu")) {
                gpu = container.path("usage");
            } else {
                idle = container.path("usage");
            }
        }
        assertThat(gpu.path("peakGpuMemoryBytes").asLong()).isEqualTo(1234L * 1024 * 1024);
        assertThat(gpu.path("averageGpuUtilizationPercent").asDouble()).isEqualTo(42.0);
        if (driver.equals("nvml")) {
            // the stub's process samples: the container's process 30 % then 50 % of the SMs, PID 1's 10 % not counted
            assertThat(gpu.path("averageGpuSmUtilizationPercent").asDouble()).isEqualTo(40.0);
            // its energy counter climbs 150 J a query: energy is the counters' difference, a whole number of queries
            double joules = gpu.path("gpuEnergyJoules").asDouble();
            assertThat(joules).isPositive();
            assertThat(joules % 150).isZero();
        } else {
            assertThat(gpu.path("averageGpuSmUtilizationPercent").isNull()).isTrue();
            assertThat(gpu.path("averageGpuSmUtilizationPercentUnavailable").asText())
                    .contains("no per-process SM samples");
        }
        // the GPU lane: every sample the source took while the test ran, each with the fake's 1234 MiB
        JsonNode lane = gpu.path("lanes").get(0);
        assertThat(lane.path("key").asText()).isEqualTo("gpuMemory");
        JsonNode memory = lane.at("/series/0/values");
        assertThat(memory.size()).isBetween(2, 4);
        memory.forEach(v -> assertThat(v.asLong()).isEqualTo(1234L * 1024 * 1024));
        JsonNode utilization = gpu.path("lanes").get(1);
        assertThat(utilization.path("key").asText()).isEqualTo("gpuUtilization");
        assertThat(utilization.at("/series/0/values/0").asDouble()).isEqualTo(42.0);
        if (driver.equals("nvml")) {
            assertThat(utilization.at("/series/2/key").asText()).isEqualTo("sm");
            utilization.at("/series/2/values").forEach(v -> assertThat(v.asDouble()).isEqualTo(40.0));
        }
        assertThat(idle.path("lanes")).isEmpty();
        assertThat(Files.readString(reports.resolve("index.html")))
                .contains("aria-label=\"GPU memory (the container&#39;s processes)\"");
        assertThat(idle.path("peakGpuMemoryBytes").isNull()).isTrue();
        assertThat(idle.path("peakGpuMemoryBytesUnavailable").asText()).startsWith("no GPU visible");

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary).contains("1.2 GiB").contains("no GPU visible");
        String prom = Files.readString(reports.resolve("vitals.prom"));
        assertThat(prom).containsPattern("vitals_container_gpu_memory_peak_bytes\\{[^}]*container=\"gpu\"[^}]*\\} "
                + (1234L * 1024 * 1024));
        assertThat(prom).doesNotContainPattern("vitals_container_gpu_memory_peak_bytes\\{[^}]*container=\"idle\"");
    }

    @MeasureResources
    static class GpuTestCases {

        @Container
        static final StressContainer gpu = new StressContainer();

        @Container
        static final StressContainer idle = new StressContainer();

        @Test
        @ResourceBudget(container = "gpu", peakGpuMemory = "1GiB")
        void usesTheGpu() throws Exception {
            Files.writeString(pidFile, Long.toString(gpu.getContainerInfo().getState().getPidLong()));
            // full reads (every second) see the fake process
            Thread.sleep(2500);
        }
    }
}
