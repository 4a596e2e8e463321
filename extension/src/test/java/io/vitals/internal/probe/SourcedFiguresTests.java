package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every probe reads every figure a descriptor declares a source for, or says why it cannot, on recorded cgroup v1
 * and v2 trees and Engine API answers: a figure no probe sets is an error, never an exact-looking 0.
 */
@DisplayName("Sourced figures from each probe")
class SourcedFiguresTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> everyProbe() throws Exception {
        return Stream.of(Arguments.of("host cgroup v1", hostV1(Fixtures.v1Root())),
                Arguments.of("host cgroup v2", hostV2(Fixtures.v2Root())),
                Arguments.of("Engine API, cgroup v1 daemon", engine("stats-v1.json")),
                Arguments.of("Engine API, cgroup v2 daemon", engine("stats-v2.json")));
    }

    private static SourcedFigures hostV1(Path root) throws ProbeException {
        try (HostCgroupProbe probe = HostCgroupProbes.open(root, Fixtures.V1_PID)) {
            return probe.read().sourced();
        }
    }

    private static SourcedFigures hostV2(Path root) throws ProbeException {
        try (HostCgroupProbe probe = HostCgroupProbes.open(root, Fixtures.V2_PID)) {
            return probe.read().sourced();
        }
    }

    private static SourcedFigures engine(String fixture) throws IOException {
        return EngineStatsParser.parse(JSON.readTree(Fixtures.path("engine-api/" + fixture).toFile()), 1L,
                Instant.EPOCH, OptionalLong.empty()).sourced();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyProbe")
    @DisplayName("each figure is read or declared unavailable with a reason, never both, never neither")
    void everyFigureAccountedFor(String probe, SourcedFigures figures) {
        assertThat(Metric.sourced()).isNotEmpty().allSatisfy(metric -> assertThat(
                figures.value(metric).isPresent() != figures.reason(metric).isPresent())
                .as("%s: %s is either read or declared unavailable", probe, metric).isTrue());
    }

    @Test
    @DisplayName("cgroup v1: total_* keys of memory.stat; kernel memory from memory.kmem.usage_in_bytes, if any")
    void cgroupV1(@TempDir Path temp) throws Exception {
        SourcedFigures recorded = hostV1(Fixtures.v1Root());
        assertThat(recorded.whole(Metric.MAJOR_PAGE_FAULTS)).hasValue(2);
        assertThat(recorded.whole(Metric.PEAK_ANONYMOUS_MEMORY)).hasValue(208_896);
        assertThat(recorded.whole(Metric.PEAK_PAGE_CACHE)).hasValue(41_996_288);
        assertThat(recorded.whole(Metric.PEAK_SHARED_MEMORY)).hasValue(0);
        assertThat(recorded.reason(Metric.PEAK_KERNEL_MEMORY)).hasValue("this host has no memory.kmem.usage_in_bytes");

        Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
        Files.writeString(root.resolve("sys/fs/cgroup/memory/docker/" + Fixtures.V1_ID
                + "/memory.kmem.usage_in_bytes"), "3145728\n");
        assertThat(hostV1(root).whole(Metric.PEAK_KERNEL_MEMORY)).hasValue(3_145_728);
    }

    @Test
    @DisplayName("cgroup v2: plain memory.stat keys; a key this kernel lacks is unavailable, with the key named")
    void cgroupV2(@TempDir Path temp) throws Exception {
        SourcedFigures recorded = hostV2(Fixtures.v2Root());
        assertThat(recorded.whole(Metric.MAJOR_PAGE_FAULTS)).hasValue(12);
        assertThat(recorded.whole(Metric.PEAK_ANONYMOUS_MEMORY)).hasValue(104_857_600);
        assertThat(recorded.whole(Metric.PEAK_PAGE_CACHE)).hasValue(41_943_040);
        assertThat(recorded.whole(Metric.PEAK_KERNEL_MEMORY)).hasValue(5_242_880);

        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path stat = Fixtures.v2Dir(root).resolve("memory.stat");
        Files.write(stat, Files.readAllLines(stat).stream().filter(line -> !line.startsWith("kernel ")).toList());
        assertThat(hostV2(root).reason(Metric.PEAK_KERNEL_MEMORY))
                .hasValue("this kernel's memory.stat has no kernel (cgroup v2)");
    }

    @Test
    @DisplayName("Engine API: memory.stat keys from memory_stats.stats; a cgroup v1 file of its own is unavailable")
    void engineApi() throws Exception {
        SourcedFigures v1 = engine("stats-v1.json");
        assertThat(v1.whole(Metric.MAJOR_PAGE_FAULTS)).hasValue(2);
        assertThat(v1.reason(Metric.PEAK_KERNEL_MEMORY)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("Engine API does not report memory.kmem.usage_in_bytes"));
        assertThat(engine("stats-v2.json").whole(Metric.MAJOR_PAGE_FAULTS)).hasValue(12);
    }

    @Test
    @DisplayName("a figure neither set nor declared unavailable cannot be built")
    void unsetFigureIsAnError() {
        SourcedFigures.Builder figures = SourcedFigures.builder();
        Metric.sourced().stream().skip(1).forEach(metric -> figures.set(metric, 1));

        assertThatIllegalStateException().isThrownBy(figures::build)
                .withMessageContaining(Metric.sourced().get(0).key()).withMessageContaining("exact 0");
    }
}
