package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Which cell of each column of the table "Exactness by host shape" (docs/metrics.md) applied to one container in
 * one test. Derived from the usage by the rules the rest of the reports already use (the high-water mark is in the
 * usage only where it is the window's own, {@link Metric#acquisition}, {@link Measurability#reason}), so a cell
 * never disagrees with {@code peakMemoryHighWaterMarkBytes}, the figure's method or "not measurable here".
 *
 * <p>Of the two peak columns only one applies: "started by the test" where the window covered the container's
 * whole life (so even a mark that cannot be reset is the test's own), "shared by tests" otherwise.
 *
 * @param cells the cell of every column that applied; the other peak column is absent
 */
@API(status = INTERNAL, since = "0.1")
public record Exactness(Map<Column, MatrixCell> cells) {

    /** The columns of the table, by their key in the reports and their heading in docs/metrics.md. */
    public enum Column {
        PEAK_MEMORY_STARTED_BY_TEST("peakMemoryStartedByTest", "peak, container started by the test"),
        PEAK_MEMORY_SHARED_BY_TESTS("peakMemorySharedByTests", "peak, container shared by tests"),
        CPU_TIME("cpuTime", "CPU time"),
        BLOCK_WRITE("blockWrite", "block write"),
        PRESSURE_STALL("pressureStall", "PSI"),
        OOM_KILLS("oomKills", "OOM kills");

        private final String key;
        private final String heading;

        Column(String key, String heading) {
            this.key = key;
            this.heading = heading;
        }

        /** The field in the per-test JSON's {@code exactness}. */
        public String key() {
            return key;
        }

        /** The column's heading in docs/metrics.md. */
        public String heading() {
            return heading;
        }
    }

    public Exactness {
        cells = Collections.unmodifiableMap(new EnumMap<>(cells));
    }

    /** The cells of {@code usage}; {@code measuredFromStart}: the window began when the container started. */
    public static Exactness of(ResourceUsage usage, boolean measuredFromStart) {
        Map<Column, MatrixCell> cells = new EnumMap<>(Column.class);
        cells.put(measuredFromStart ? Column.PEAK_MEMORY_STARTED_BY_TEST : Column.PEAK_MEMORY_SHARED_BY_TESTS,
                peak(usage));
        cells.put(Column.CPU_TIME, counter(Metric.CPU_TIME, usage));
        cells.put(Column.BLOCK_WRITE, counter(Metric.BLOCK_WRITE, usage));
        cells.put(Column.PRESSURE_STALL, pressureStall(usage));
        cells.put(Column.OOM_KILLS, oomKills(usage));
        return new Exactness(cells);
    }

    /** The cell of {@code column}; empty for the peak column that did not apply. */
    public Optional<MatrixCell> cell(Column column) {
        return Optional.ofNullable(cells.get(column));
    }

    /** Whether the peak was judged as that of a container started by the test. */
    public boolean measuredFromStart() {
        return cells.containsKey(Column.PEAK_MEMORY_STARTED_BY_TEST);
    }

    // The table's peak columns are the kernel's mark of charged memory: the window reports it only where it covers
    // just the window (reset, or the container's whole life), and the sampled MEM USAGE peak is what is left.
    private static MatrixCell peak(ResourceUsage usage) {
        return usage.peakMemoryHighWaterMark().isPresent() ? MatrixCell.exact()
                : MatrixCell.sampled(usage.peak().samplingInterval());
    }

    private static MatrixCell counter(Metric metric, ResourceUsage usage) {
        return Measurability.reason(metric, usage).map(MatrixCell::unavailable)
                .orElseGet(() -> MatrixCell.of(metric.acquisition(usage), usage.timeline().samplingInterval()));
    }

    // PSI totals are kernel counters: exact where the files exist; the probe reads them wherever they do.
    private static MatrixCell pressureStall(ResourceUsage usage) {
        if (usage.pressureStallCpu().isPresent() || usage.pressureStallMemory().isPresent()
                || usage.pressureStallIo().isPresent()) {
            return MatrixCell.exact();
        }
        return MatrixCell.unavailable(usage.probe() == ProbeKind.ENGINE_API
                ? "The Docker Engine API reports no pressure stall information."
                : "The host exposes no pressure files for this container's cgroup (a kernel without PSI or booted "
                        + "with psi=0" + (usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1
                                ? ", or no cgroup v2 hierarchy mounted beside the v1 controllers" : "") + ").");
    }

    // The kernel's oom_kill counter (memory.events on v2, memory.oom_control on v1) is read from the cgroup files;
    // the Engine API's stats carry no such count: ReportedFigure decides, as for every writer.
    private static MatrixCell oomKills(ResourceUsage usage) {
        return ReportedFigure.oomKills(usage).notMeasured().map(MatrixCell::unavailable).orElseGet(MatrixCell::exact);
    }
}
