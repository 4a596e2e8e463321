package io.vitals.internal.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.vitals.internal.report.ReportFixtures;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Metric entries")
class MetricTests {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = ';', value = {
            "SIZE;      851443712;  812.0 MiB",
            "SIZE;      0;          0 B",
            "PERCENT;   45.23;      45.2%",
            "PERCENT;   150;        150.0%",
            "DURATION;  65;         1m 5s",
            "DURATION;  12.44;      12.4 s",
            "DURATION;  0.25;       250 ms",
            "COUNT;     41.6;       42",
            "RATE;      174762.67;  10.0 MiB/min",
            "RATE;      -174762.67; -10.0 MiB/min" })
    @DisplayName("one formatter per unit: the public value types' own forms")
    void formats(Unit unit, double value, String expected) {
        assertThat(unit.format(value)).isEqualTo(expected);
    }

    @Test
    @DisplayName("an unknown figure reads 'unknown', and percentages export as ratios")
    void unknownAndRatios() {
        assertThat(Unit.SIZE.format(Double.NaN)).isEqualTo("unknown");
        assertThat(Unit.PERCENT.toPrometheus(150)).isEqualTo(1.5);
        assertThat(Unit.SIZE.toPrometheus(1024)).isEqualTo(1024);
    }

    @Test
    @DisplayName("directions: headroom is the one floor")
    void directions() {
        assertThat(Metric.all()).filteredOn(Metric::isFloor).containsExactly(Metric.MEMORY_HEADROOM);
        assertThat(Direction.FLOOR.isWithin(12, 20)).isFalse();
        assertThat(Direction.FLOOR.overshoot(12, 20)).isEqualTo(8);
        assertThat(Direction.CEILING.overshoot(12, 20)).isEqualTo(-8);
        assertThat(Direction.FLOOR.isWorse(-1)).isTrue();
        assertThat(Direction.CEILING.isWorse(-1)).isFalse();
    }

    @Test
    @DisplayName("keys, JSON fields and Prometheus families keep the names other tools read")
    void stableNames() {
        assertThat(Metric.all()).extracting(Metric::key, Metric::jsonField, m -> m.exported().name(),
                m -> m.exported().type()).containsSubsequence(
                        tuple("peakMemory", "peakMemoryBytes", "vitals_container_memory_peak_bytes",
                                Exported.Type.GAUGE),
                        tuple("memoryHeadroom", "memoryHeadroomPercent", "vitals_container_memory_headroom_ratio",
                                Exported.Type.GAUGE),
                        tuple("cpuTime", "cpuSeconds", "vitals_container_cpu_seconds_total",
                                Exported.Type.COUNTER),
                        tuple("averageCpu", "averageCpuPercent", "vitals_container_cpu_usage_ratio",
                                Exported.Type.GAUGE),
                        tuple("peakPids", "peakPids", "vitals_container_pids_peak", Exported.Type.GAUGE),
                        tuple("blockRead", "blockReadBytes", "vitals_container_block_read_bytes_total",
                                Exported.Type.COUNTER),
                        tuple("blockWrite", "blockWriteBytes", "vitals_container_block_write_bytes_total",
                                Exported.Type.COUNTER),
                        tuple("networkReceived", "networkReceivedBytes",
                                "vitals_container_network_receive_bytes_total", Exported.Type.COUNTER),
                        tuple("networkSent", "networkSentBytes", "vitals_container_network_transmit_bytes_total",
                                Exported.Type.COUNTER),
                        tuple("memoryGrowth", "memoryGrowthBytesPerSecond",
                                "vitals_container_memory_growth_bytes_per_second", Exported.Type.GAUGE),
                        tuple("throttledTime", "throttledSeconds", "vitals_container_cpu_throttled_seconds_total",
                                Exported.Type.COUNTER),
                        tuple("peakGpuMemory", "peakGpuMemoryBytes", "vitals_container_gpu_memory_peak_bytes",
                                Exported.Type.GAUGE),
                        tuple("averageGpuUtilization", "averageGpuUtilizationPercent",
                                "vitals_container_gpu_utilization_ratio", Exported.Type.GAUGE),
                        tuple("averageGpuSmUtilization", "averageGpuSmUtilizationPercent",
                                "vitals_container_gpu_sm_utilization_ratio", Exported.Type.GAUGE),
                        tuple("gpuEnergy", "gpuEnergyJoules", "vitals_container_gpu_energy_joules_total",
                                Exported.Type.COUNTER),
                        tuple("wallTime", "wallSeconds", "vitals_container_wall_seconds", Exported.Type.GAUGE),
                        tuple("majorPageFaults", "majorPageFaults",
                                "vitals_container_memory_major_page_faults_total", Exported.Type.COUNTER),
                        tuple("peakAnonymousMemory", "peakAnonymousMemoryBytes",
                                "vitals_container_memory_peak_anonymous_bytes", Exported.Type.GAUGE),
                        tuple("peakPageCache", "peakPageCacheBytes", "vitals_container_memory_peak_page_cache_bytes",
                                Exported.Type.GAUGE),
                        tuple("peakSharedMemory", "peakSharedMemoryBytes",
                                "vitals_container_memory_peak_shared_bytes", Exported.Type.GAUGE),
                        tuple("peakKernelMemory", "peakKernelMemoryBytes",
                                "vitals_container_memory_peak_kernel_bytes", Exported.Type.GAUGE));
    }

    @Test
    @DisplayName("wall time and the peak's composition take no budget; wall time, the GPU figures and major page "
            + "faults are compared only on request")
    void budgetsAndComparisons() {
        assertThat(Metric.all()).filteredOn(m -> m.budgetAttribute().isEmpty()).containsSubsequence(
                Metric.WALL_TIME, Metric.PEAK_ANONYMOUS_MEMORY, Metric.PEAK_PAGE_CACHE, Metric.PEAK_SHARED_MEMORY,
                Metric.PEAK_KERNEL_MEMORY);
        assertThat(Metric.compared()).extracting(Metric::key).containsSubsequence("peakMemory", "cpuTime",
                "averageCpu", "peakPids", "blockRead", "blockWrite", "networkReceived", "networkSent", "peakGpuMemory",
                "averageGpuUtilization", "averageGpuSmUtilization", "gpuEnergy", "wallTime", "majorPageFaults");
        assertThat(Metric.compared()).filteredOn(m -> !m.comparison().orElseThrow().byDefault())
                .containsSubsequence(Metric.PEAK_GPU_MEMORY, Metric.AVERAGE_GPU_UTILIZATION,
                        Metric.AVERAGE_GPU_SM_UTILIZATION, Metric.GPU_ENERGY, Metric.WALL_TIME,
                        Metric.MAJOR_PAGE_FAULTS);
    }

    @Test
    @DisplayName("peak memory is exact with a kernel high-water mark, sampled otherwise; PIDs are sampled")
    void acquisition() {
        var usage = ReportFixtures.usage("tf", 1.0, 20);
        assertThat(Metric.PEAK_MEMORY.acquisition(usage)).isEqualTo(Acquisition.SAMPLED);
        assertThat(Metric.PEAK_PIDS.acquisition(usage)).isEqualTo(Acquisition.SAMPLED);
        assertThat(Metric.CPU_TIME.acquisition(usage)).isEqualTo(Acquisition.EXACT);
        assertThat(Metric.MEMORY_GROWTH.acquisition(usage)).isEqualTo(Acquisition.FITTED);
        var exact = usage.toBuilder().peak(new io.vitals.PeakMemory(usage.peakMemory(), usage.peak().at(),
                io.vitals.PeakMemory.Method.KERNEL_HIGH_WATER_MARK, usage.peak().samplingInterval())).build();
        assertThat(Metric.PEAK_MEMORY.acquisition(exact)).isEqualTo(Acquisition.EXACT);
        assertThat(Metric.MEMORY_HEADROOM.acquisition(exact)).isEqualTo(Acquisition.EXACT);
    }
}
