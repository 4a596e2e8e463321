package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.FigureSource;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.probe.cgroupfs.CgroupFiles;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.JsonNode;
import org.apiguardian.api.API;

/**
 * Turns one object of the Engine API's {@code GET /containers/{id}/stats} into a {@link RawReading}, for daemons
 * on cgroup v1 hosts ({@code total_*} memory.stat keys, capitalised blkio ops) and v2 hosts (plain keys, synthesised
 * {@code read}/{@code write} ops, no {@code max_usage}). Field meanings follow docker's own CLI (stats_helpers.go).
 */
@API(status = INTERNAL, since = "0.1")
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
        JsonNode throttling = cpu.path("throttling_data");
        CpuReading cpuReading = CpuReading.builder()
                .usage(usage.path("total_usage").asLong(), usage.path("usage_in_usermode").asLong(),
                        usage.path("usage_in_kernelmode").asLong())
                .hostNanos(optional(cpu, "system_cpu_usage"))
                .onlineCpus(onlineCpus)
                .throttling(throttling.path("periods").asLong(0), throttling.path("throttled_periods").asLong(0),
                        throttling.path("throttled_time").asLong(0))
                .build();
        MemoryReading memoryReading = MemoryReading.builder()
                .charged(memory.path("usage").asLong())
                .inactiveFile(memoryStat.path(prefix + "inactive_file").asLong())
                .pageCache(memoryStat.path(v1 ? "total_cache" : "file").asLong())
                .anonymous(memoryStat.path(v1 ? "total_rss" : "anon").asLong())
                .swap(optional(memoryStat, prefix + "swap"))
                .limit(configuredLimit)
                .highWaterMark(optional(memory, "max_usage")) // absent on cgroup v2
                .limitHits(memory.path("failcnt").asLong(0))
                .build(); // no OOM-kill counter in the Engine API
        JsonNode pids = stats.path("pids_stats");
        long pidsLimit = pids.path("limit").asLong(0);
        return RawReading.builder()
                .at(monotonicNanos, wallTime)
                .cpu(cpuReading)
                .memory(memoryReading)
                .pids(new PidsReading(pids.path("current").asLong(0),
                        pidsLimit > 0 ? OptionalLong.of(pidsLimit) : OptionalLong.empty()))
                .blockIo(blockIo(stats.path("blkio_stats").path("io_service_bytes_recursive")))
                .network(network(stats.path("networks")))
                .sourced(sourced(memoryStat, v1))
                .build(); // no pressure-stall figures in the Engine API
    }

    /**
     * The sourced figures from {@code memory_stats.stats}, the daemon's copy of memory.stat; a figure read from a
     * file of its own on the host (cgroup v1 kernel memory) cannot be had through the API.
     */
    static SourcedFigures sourced(JsonNode memoryStat, boolean v1) {
        SourcedFigures.Builder figures = SourcedFigures.builder();
        for (Metric metric : Metric.sourced()) {
            FigureSource source = metric.source().orElseThrow();
            Optional<String> key = source.engineApiKey(v1);
            if (key.isEmpty()) {
                figures.unavailable(metric, "the Docker Engine API does not report "
                        + source.on(v1).map(FigureSource.CgroupValue::describe).orElse(metric.label())
                        + "; the host cgroup probe reads it");
            } else if (memoryStat.has(key.get())) {
                figures.set(metric, memoryStat.path(key.get()).asLong());
            } else {
                figures.unavailable(metric, "the engine's memory_stats.stats has no " + key.get());
            }
        }
        return figures.build();
    }

    private static OptionalLong optional(JsonNode object, String field) {
        return object.has(field) ? OptionalLong.of(object.path(field).asLong()) : OptionalLong.empty();
    }

    /** True when the object describes a running container; a stopped one has only id, name and os_type. */
    public static boolean isRunning(JsonNode stats) {
        return stats.has("memory_stats") && stats.path("memory_stats").size() > 0;
    }

    private static BlockIoReading blockIo(JsonNode entries) {
        long[] readWrite = new long[2]; // the op-name rule is the cgroup v1 parser's, which fills a pair
        for (JsonNode entry : entries) {
            CgroupFiles.addByOp(readWrite, entry.path("op").asText(""), entry.path("value").asLong());
        }
        return new BlockIoReading(readWrite[0], readWrite[1]);
    }

    private static NetworkReading network(JsonNode networks) {
        long received = 0;
        long sent = 0;
        for (Map.Entry<String, JsonNode> entry : networks.properties()) {
            JsonNode counters = entry.getValue();
            received += counters.path("rx_bytes").asLong();
            sent += counters.path("tx_bytes").asLong();
        }
        return new NetworkReading(received, sent);
    }
}
