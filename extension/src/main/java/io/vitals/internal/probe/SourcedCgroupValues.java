package io.vitals.internal.probe;

import io.vitals.internal.metric.FigureSource.CgroupValue;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.probe.cgroupfs.CgroupFile;
import io.vitals.internal.probe.cgroupfs.CgroupFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads every figure that declares a {@link io.vitals.internal.metric.FigureSource} from a container's cgroup, for
 * one host shape, so that a figure added to {@link Metric} needs no reader code. Keys of {@code memory.stat} are
 * read with the base figures' keys in the one parse the stats reader already makes ({@link #statKeys}); a
 * single-value file is kept open like the base files. A figure whose source this host lacks (no such key in this
 * kernel's memory.stat, no such file, nothing declared for this cgroup version) is declared unavailable with the
 * reason, never left at 0.
 */
final class SourcedCgroupValues {

    private final List<Metric> metrics = Metric.sourced();
    /** Per figure: its place in the stats reader's memory.stat values, or -1 where it is not a memory.stat key. */
    private final int[] statIndex;
    /** Per figure: its single-value file, where it is read from one and the file exists. */
    private final List<Optional<CgroupFile>> files = new ArrayList<>();
    /** Per figure: why this host cannot read it at all, or null. */
    private final String[] missing;
    private final boolean cgroupV1;
    private final String shape;

    /**
     * @param cgroupV1 the host shape
     * @param memoryDir the cgroup's directory holding the memory files (v1: the memory controller's)
     * @param statKeys every key the stats reader parses from memory.stat, made with {@link #statKeys}
     */
    SourcedCgroupValues(boolean cgroupV1, Path memoryDir, List<String> statKeys, OpenFiles open) throws IOException {
        this.cgroupV1 = cgroupV1;
        this.shape = cgroupV1 ? "cgroup v1" : "cgroup v2";
        statIndex = new int[metrics.size()];
        missing = new String[metrics.size()];
        for (int i = 0; i < metrics.size(); i++) {
            Metric metric = metrics.get(i);
            Optional<CgroupValue> value = metric.source().orElseThrow().on(cgroupV1);
            statIndex[i] = value.filter(CgroupValue::isMemoryStat).map(v -> statKeys.indexOf(v.key().orElseThrow()))
                    .orElse(-1);
            Optional<CgroupFile> file = Optional.empty();
            if (value.isEmpty()) {
                missing[i] = shape + " has no " + metric.label();
            } else if (!value.get().isMemoryStat()) {
                file = open.optional(memoryDir.resolve(value.get().file()));
                if (file.isEmpty()) {
                    missing[i] = "this host has no " + value.get().file();
                }
            }
            files.add(file);
        }
    }

    /** {@code baseKeys} followed by every memory.stat key a sourced figure declares for the shape, each once. */
    static List<String> statKeys(boolean cgroupV1, String... baseKeys) {
        List<String> keys = new ArrayList<>(Arrays.asList(baseKeys));
        for (Metric metric : Metric.sourced()) {
            metric.source().orElseThrow().on(cgroupV1).filter(CgroupValue::isMemoryStat)
                    .map(value -> value.key().orElseThrow()).filter(key -> !keys.contains(key)).ifPresent(keys::add);
        }
        return List.copyOf(keys);
    }

    /** The figures, from {@code stat} (memory.stat as the stats reader just parsed it) and their own files. */
    SourcedFigures read(long[] stat) throws IOException {
        SourcedFigures.Builder figures = SourcedFigures.builder();
        for (int i = 0; i < metrics.size(); i++) {
            Metric metric = metrics.get(i);
            if (missing[i] != null) {
                figures.unavailable(metric, missing[i]);
            } else if (statIndex[i] >= 0) {
                long value = stat[statIndex[i]];
                if (value == CgroupFiles.ABSENT) {
                    figures.unavailable(metric, "this kernel's memory.stat has no "
                            + metric.source().orElseThrow().on(cgroupV1).orElseThrow().key().orElseThrow()
                            + " (" + shape + ")");
                } else {
                    figures.set(metric, value);
                }
            } else {
                long value = files.get(i).orElseThrow().readValue();
                if (value == CgroupFiles.ABSENT) {
                    figures.unavailable(metric, files.get(i).orElseThrow().path() + " holds no number");
                } else {
                    figures.set(metric, value);
                }
            }
        }
        return figures.build();
    }
}
