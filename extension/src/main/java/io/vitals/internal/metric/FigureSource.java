package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ProbeKind;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Where a figure's value comes from on each host shape, and how a window aggregates it: the input side of a
 * {@link Metric} descriptor, as cAdvisor's metric table names the cgroup file of each figure. The probes read every
 * declared source with one generic reader (a key of {@code memory.stat} costs nothing beyond the read the base
 * figures already make), and the window aggregates them with one calculator, so a figure added here needs no
 * reader code. Where a source is absent on a host shape, the figure is reported as not measured, with the reason.
 *
 * @param v1 the value on a cgroup v1 host, in the memory controller's directory; empty where v1 has none
 * @param v2 the value on a cgroup v2 host; empty where v2 has none
 * @param aggregation how a window turns the readings into the figure
 */
@API(status = INTERNAL, since = "0.1")
public record FigureSource(Optional<CgroupValue> v1, Optional<CgroupValue> v2, Aggregation aggregation) {

    public FigureSource {
        Objects.requireNonNull(v1, "v1");
        Objects.requireNonNull(v2, "v2");
        Objects.requireNonNull(aggregation, "aggregation");
    }

    /** A key of {@code memory.stat}, named {@code v1Key} on cgroup v1 (its hierarchical {@code total_*} key). */
    static FigureSource memoryStat(String v1Key, String v2Key, Aggregation aggregation) {
        return new FigureSource(Optional.of(CgroupValue.memoryStat(v1Key)), Optional.of(CgroupValue.memoryStat(v2Key)),
                aggregation);
    }

    /** A key of {@code memory.stat} that only cgroup v2 has. */
    static FigureSource v2MemoryStat(String v2Key, Aggregation aggregation) {
        return new FigureSource(Optional.empty(), Optional.of(CgroupValue.memoryStat(v2Key)), aggregation);
    }

    /** The same figure read on cgroup v1 from a file of its own holding one number. */
    FigureSource v1File(String file) {
        return new FigureSource(Optional.of(CgroupValue.file(file)), v2, aggregation);
    }

    /** The value on a host of shape {@code cgroupV1} (true) or v2. */
    public Optional<CgroupValue> on(boolean cgroupV1) {
        return cgroupV1 ? v1 : v2;
    }

    /**
     * The field of the Engine API's {@code memory_stats.stats} that holds it: the daemon copies {@code memory.stat}
     * there, so only {@code memory.stat} keys can be had through the API.
     */
    public Optional<String> engineApiKey(boolean cgroupV1) {
        return on(cgroupV1).filter(CgroupValue::isMemoryStat).flatMap(CgroupValue::key);
    }

    /** How the figure was measured for a usage from {@code probe}, in words. */
    public String describe(ProbeKind probe) {
        String where = switch (probe) {
            case HOST_CGROUP_V1, AGENT_CGROUP_V1 -> v1.map(CgroupValue::describe).orElse("nothing") + " (cgroup v1)";
            case HOST_CGROUP_V2, AGENT_CGROUP_V2 -> v2.map(CgroupValue::describe).orElse("nothing") + " (cgroup v2)";
            case ENGINE_API -> "memory_stats.stats." + v2.flatMap(CgroupValue::key).orElse("?")
                    + v1.flatMap(CgroupValue::key).map(k -> " (" + k + " on cgroup v1)").orElse("")
                    + " of the Engine API";
        };
        return where + ", " + aggregation.words();
    }

    /**
     * One number in the cgroup tree: a key of a keyed file such as {@code memory.stat}, or a file holding one value.
     *
     * @param file the file's name, e.g. {@code memory.stat} or {@code memory.kmem.usage_in_bytes}
     * @param key the key inside it; empty for a single-value file
     */
    @API(status = INTERNAL, since = "0.1")
    public record CgroupValue(String file, Optional<String> key) {

        public static final String MEMORY_STAT = "memory.stat";

        public CgroupValue {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(key, "key");
        }

        static CgroupValue memoryStat(String key) {
            return new CgroupValue(MEMORY_STAT, Optional.of(key));
        }

        static CgroupValue file(String file) {
            return new CgroupValue(file, Optional.empty());
        }

        public boolean isMemoryStat() {
            return file.equals(MEMORY_STAT) && key.isPresent();
        }

        public String describe() {
            return key.map(k -> file + " " + k).orElse(file);
        }
    }
}
