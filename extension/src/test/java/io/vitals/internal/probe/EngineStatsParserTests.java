package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.time.Instant;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("EngineStatsParser")
class EngineStatsParserTests {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-29T15:59:17Z");

    private static JsonNode fixture(String name) throws IOException {
        return JSON.readTree(Fixtures.path("engine-api/" + name).toFile());
    }

    private static RawReading parse(JsonNode stats, OptionalLong limit) {
        return EngineStatsParser.parse(stats, 123L, NOW, limit);
    }

    @Nested
    @DisplayName("cgroup v1 daemon (recorded)")
    class V1 {

        @Test
        @DisplayName("every field")
        void everyField() throws IOException {
            JsonNode stats = fixture("stats-v1.json");
            assertThat(EngineStatsParser.isRunning(stats)).isTrue();
            RawReading r = parse(stats, OptionalLong.of(268_435_456L));
            assertThat(r.monotonicNanos()).isEqualTo(123L);
            assertThat(r.wallTime()).isEqualTo(NOW);
            assertThat(r.cpu().totalNanos()).isEqualTo(422_699_666L);
            assertThat(r.cpu().userNanos()).isEqualTo(280_000_000L);
            assertThat(r.cpu().systemNanos()).isEqualTo(130_000_000L);
            assertThat(r.cpu().hostNanos()).isEqualTo(OptionalLong.of(1_194_620_000_000L));
            assertThat(r.cpu().onlineCpus()).isEqualTo(2);
            assertThat(r.memory().chargedBytes()).isEqualTo(43_745_280L);
            assertThat(r.memory().inactiveFileBytes()).isEqualTo(41_992_192L);
            assertThat(r.memory().pageCacheBytes()).isEqualTo(41_996_288L);
            assertThat(r.memory().anonymousBytes()).isEqualTo(208_896L);
            assertThat(r.memory().swapBytes()).isEmpty(); // daemon 20.10 passes no swap key
            assertThat(r.memory().limitBytes()).isEqualTo(OptionalLong.of(268_435_456L));
            assertThat(r.memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(44_900_352L));
            assertThat(r.memory().limitHits()).isZero();
            assertThat(r.memory().oomKills()).isZero();
            assertThat(r.pids().current()).isEqualTo(2);
            assertThat(r.pids().limit()).isEqualTo(OptionalLong.of(100));
            assertThat(r.blockIo().readBytes()).isZero();
            assertThat(r.blockIo().writeBytes()).isZero();
            assertThat(r.network().receivedBytes()).isEqualTo(766);
            assertThat(r.network().sentBytes()).isZero();
            assertThat(r.cpu().periods()).isEqualTo(9);
            assertThat(r.cpu().throttledPeriods()).isZero();
            assertThat(r.cpu().throttledNanos()).isZero();
            assertThat(r.pressure()).isEmpty();
            assertThat(r.memory().workingSetBytes()).isEqualTo(43_745_280L - 41_992_192L);
        }

        @Test
        @DisplayName("capitalised v1 ops: Read/Write counted, Sync/Async/Total ignored")
        void blkioOps() throws IOException {
            JsonNode stats = JSON.readTree("{\"memory_stats\":{\"usage\":1},\"blkio_stats\":{"
                    + "\"io_service_bytes_recursive\":["
                    + "{\"major\":8,\"minor\":0,\"op\":\"Read\",\"value\":4096000},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"Write\",\"value\":1228800},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"Sync\",\"value\":5324800},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"Async\",\"value\":0},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"Discard\",\"value\":0},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"Total\",\"value\":5324800},"
                    + "{\"major\":8,\"minor\":0,\"op\":\"\",\"value\":99}]}}");
            RawReading r = parse(stats, OptionalLong.empty());
            assertThat(r.blockIo().readBytes()).isEqualTo(4_096_000L);
            assertThat(r.blockIo().writeBytes()).isEqualTo(1_228_800L);
        }

        @Test
        @DisplayName("v1 total_swap is read")
        void swap() throws IOException {
            JsonNode stats = JSON.readTree("{\"memory_stats\":{\"usage\":10,\"stats\":{\"total_cache\":4,"
                    + "\"total_inactive_file\":3,\"total_swap\":4096,\"swap\":1}}}");
            RawReading r = parse(stats, OptionalLong.empty());
            assertThat(r.memory().swapBytes()).isEqualTo(OptionalLong.of(4096));
            assertThat(r.memory().workingSetBytes()).isEqualTo(7);
        }
    }

    @Nested
    @DisplayName("cgroup v2 daemon (hand-written)")
    class V2 {

        @Test
        @DisplayName("every field")
        void everyField() throws IOException {
            JsonNode stats = fixture("stats-v2.json");
            assertThat(EngineStatsParser.isRunning(stats)).isTrue();
            RawReading r = parse(stats, OptionalLong.empty());
            assertThat(r.cpu().totalNanos()).isEqualTo(8_123_456_000L);
            assertThat(r.cpu().userNanos()).isEqualTo(7_000_000_000L);
            assertThat(r.cpu().systemNanos()).isEqualTo(1_123_456_000L);
            assertThat(r.cpu().hostNanos()).isEqualTo(OptionalLong.of(2_350_918_230_000_000L));
            assertThat(r.cpu().onlineCpus()).isEqualTo(8);
            assertThat(r.memory().chargedBytes()).isEqualTo(157_286_400L);
            assertThat(r.memory().inactiveFileBytes()).isEqualTo(31_457_280L);
            assertThat(r.memory().pageCacheBytes()).isEqualTo(41_943_040L);
            assertThat(r.memory().anonymousBytes()).isEqualTo(104_857_600L);
            assertThat(r.memory().swapBytes()).isEmpty();
            // the stats "limit" is host memory; the container's configured limit (none) is what counts
            assertThat(r.memory().limitBytes()).isEmpty();
            assertThat(r.memory().highWaterMarkBytes()).isEmpty(); // no max_usage on v2
            assertThat(r.memory().limitHits()).isEqualTo(1); // failcnt (memory.events oom on v2)
            assertThat(r.memory().oomKills()).isZero();
            assertThat(r.pids().current()).isEqualTo(7);
            assertThat(r.pids().limit()).isEqualTo(OptionalLong.of(100));
            assertThat(r.blockIo().readBytes()).isEqualTo(90_430_464L + 1_048_576L);
            assertThat(r.blockIo().writeBytes()).isEqualTo(299_008_000L + 2_097_152L);
            assertThat(r.network().receivedBytes()).isEqualTo(124_456L);
            assertThat(r.network().sentBytes()).isEqualTo(67_432L);
            assertThat(r.cpu().periods()).isEqualTo(420);
            assertThat(r.cpu().throttledPeriods()).isEqualTo(37);
            assertThat(r.cpu().throttledNanos()).isEqualTo(912_345_000L);
            assertThat(r.pressure()).isEmpty();
            assertThat(r.memory().workingSetBytes()).isEqualTo(125_829_120L);
        }

        @Test
        @DisplayName("agrees with the host probe on the matching cgroup v2 tree")
        void agreesWithHostProbe() throws Exception {
            RawReading api = parse(fixture("stats-v2.json"), OptionalLong.empty());
            try (HostCgroupProbe probe = HostCgroupProbes.open(Fixtures.v2Root(), Fixtures.V2_PID)) {
                RawReading host = probe.read();
                assertThat(api.cpu().totalNanos()).isEqualTo(host.cpu().totalNanos());
                assertThat(api.memory().workingSetBytes()).isEqualTo(host.memory().workingSetBytes());
                assertThat(api.blockIo().readBytes()).isEqualTo(host.blockIo().readBytes());
                assertThat(api.blockIo().writeBytes()).isEqualTo(host.blockIo().writeBytes());
                assertThat(api.network().receivedBytes()).isEqualTo(host.network().receivedBytes());
                assertThat(api.cpu().throttledNanos()).isEqualTo(host.cpu().throttledNanos());
            }
        }
    }

    @Nested
    @DisplayName("stopped containers and missing fields")
    class Missing {

        @Test
        @DisplayName("{id, name, os_type} is not running")
        void stoppedModern() throws IOException {
            JsonNode stats = JSON.readTree("{\"id\":\"15f62d52\",\"name\":\"/db\",\"os_type\":\"linux\"}");
            assertThat(EngineStatsParser.isRunning(stats)).isFalse();
        }

        @Test
        @DisplayName("the recorded answer for a never-started container (empty memory_stats) is not running")
        void notStarted() throws IOException {
            assertThat(EngineStatsParser.isRunning(fixture("stats-created-not-started.json"))).isFalse();
        }

        @Test
        @DisplayName("without online_cpus, the length of percpu_usage")
        void noOnlineCpus() throws IOException {
            JsonNode stats = JSON.readTree("{\"cpu_stats\":{\"cpu_usage\":{\"total_usage\":5,"
                    + "\"percpu_usage\":[1,1,1,2]}},\"memory_stats\":{\"usage\":1}}");
            assertThat(parse(stats, OptionalLong.empty()).cpu().onlineCpus()).isEqualTo(4);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"{}", "{\"memory_stats\":{}}", "{\"cpu_stats\":{},\"memory_stats\":{\"usage\":0},"
                + "\"blkio_stats\":{\"io_service_bytes_recursive\":null},\"pids_stats\":{},\"networks\":{}}"})
        @DisplayName("empty or missing sections read as zero / empty, never fail")
        void empty(String json) throws IOException {
            RawReading r = parse(JSON.readTree(json), OptionalLong.empty());
            assertThat(r.cpu().totalNanos()).isZero();
            assertThat(r.cpu().hostNanos()).isEmpty();
            assertThat(r.cpu().onlineCpus()).isZero();
            assertThat(r.memory().chargedBytes()).isZero();
            assertThat(r.memory().highWaterMarkBytes()).isEmpty();
            assertThat(r.memory().swapBytes()).isEmpty();
            assertThat(r.pids().current()).isZero();
            assertThat(r.pids().limit()).isEmpty();
            assertThat(r.blockIo().readBytes()).isZero();
            assertThat(r.network().receivedBytes()).isZero();
            assertThat(r.cpu().throttledNanos()).isZero();
            assertThat(r.memory().workingSetBytes()).isZero();
        }

        @Test
        @DisplayName("pids limit 0 means none")
        void pidsLimitZero() throws IOException {
            JsonNode stats = JSON.readTree("{\"pids_stats\":{\"current\":3,\"limit\":0}}");
            assertThat(parse(stats, OptionalLong.empty()).pids().limit()).isEmpty();
        }

        @Test
        @DisplayName("an inactive_file not below usage is not subtracted")
        void inactiveNotBelowUsage() throws IOException {
            JsonNode stats = JSON.readTree("{\"memory_stats\":{\"usage\":100,\"stats\":{\"inactive_file\":100}}}");
            assertThat(parse(stats, OptionalLong.empty()).memory().workingSetBytes()).isEqualTo(100);
        }
    }
}
