package io.vitals.internal.probe;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns one object of the Engine API's {@code GET /containers/{id}/stats} into a {@link RawReading}, for daemons
 * on cgroup v1 hosts ({@code total_*} memory.stat keys, capitalised blkio ops) and v2 hosts (plain keys, synthesised
 * {@code read}/{@code write} ops, no {@code max_usage}). Field meanings follow docker's own CLI (stats_helpers.go).
 */
public final class EngineStatsParser {

    private EngineStatsParser() {
    }

    /**
     * @param stats the JSON object
     * @param configuredLimit the container's own memory limit from inspect; the daemon reports host memory as the
     *     limit of an unlimited container, so the stats field alone cannot tell "no limit" apart
     */
    public static RawReading parse(JsonNode stats, long monotonicNanos, Instant wallTime,
            OptionalLong configuredLimit) {
        JsonNode cpu = stats.path("cpu_stats");
        JsonNode usage = cpu.path("cpu_usage");
        JsonNode memory = stats.path("memory_stats");
        JsonNode memoryStat = memory.path("stats");
        boolean v1 = memoryStat.has("total_inactive_file") || memoryStat.has("total_cache");
        String prefix = v1 ? "total_" : "";

        int onlineCpus = cpu.path("online_cpus").asInt(0);
        if (onlineCpus == 0) {
            onlineCpus = usage.path("percpu_usage").size(); // daemons before API 1.27
        }
        OptionalLong systemCpu = cpu.has("system_cpu_usage")
                ? OptionalLong.of(cpu.path("system_cpu_usage").asLong()) : OptionalLong.empty();
        OptionalLong maxUsage = memory.has("max_usage") ? OptionalLong.of(memory.path("max_usage").asLong())
                : OptionalLong.empty();
        OptionalLong swap = memoryStat.has(prefix + "swap") ? OptionalLong.of(memoryStat.path(prefix + "swap").asLong())
                : OptionalLong.empty();
        long[] io = blockIo(stats.path("blkio_stats").path("io_service_bytes_recursive"));
        long[] network = network(stats.path("networks"));
        JsonNode pids = stats.path("pids_stats");
        long pidsLimit = pids.path("limit").asLong(0);
        JsonNode throttling = cpu.path("throttling_data");
        return new RawReading(monotonicNanos, wallTime,
                usage.path("total_usage").asLong(), usage.path("usage_in_usermode").asLong(),
                usage.path("usage_in_kernelmode").asLong(), systemCpu, onlineCpus,
                memory.path("usage").asLong(), memoryStat.path(prefix + "inactive_file").asLong(),
                memoryStat.path(v1 ? "total_cache" : "file").asLong(),
                memoryStat.path(v1 ? "total_rss" : "anon").asLong(), swap, configuredLimit, maxUsage,
                memory.path("failcnt").asLong(0), 0, pids.path("current").asLong(0),
                pidsLimit > 0 ? OptionalLong.of(pidsLimit) : OptionalLong.empty(), io[0], io[1], network[0],
                network[1], throttling.path("periods").asLong(0), throttling.path("throttled_periods").asLong(0),
                throttling.path("throttled_time").asLong(0), Optional.empty());
    }

    /** True when the object describes a running container; a stopped one has only id, name and os_type. */
    public static boolean isRunning(JsonNode stats) {
        return stats.has("memory_stats") && stats.path("memory_stats").size() > 0;
    }

    private static long[] blockIo(JsonNode entries) {
        long[] readWrite = new long[2];
        for (JsonNode entry : entries) {
            CgroupFiles.addByOp(readWrite, entry.path("op").asText(""), entry.path("value").asLong());
        }
        return readWrite;
    }

    private static long[] network(JsonNode networks) {
        long[] receivedSent = new long[2];
        for (Map.Entry<String, JsonNode> entry : networks.properties()) {
            JsonNode counters = entry.getValue();
            receivedSent[0] += counters.path("rx_bytes").asLong();
            receivedSent[1] += counters.path("tx_bytes").asLong();
        }
        return receivedSent;
    }
}
