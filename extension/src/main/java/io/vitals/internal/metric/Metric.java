package io.vitals.internal.metric;

import static io.vitals.internal.metric.MetricSpec.bytesMoved;
import static io.vitals.internal.metric.MetricSpec.figure;
import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.Energy;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * Every figure Vitals reports, one entry each: everything the rest of the code needs to know about a figure lives
 * here, as in cAdvisor's metric table. Budgets, assertions, the breach sentence, baseline and history comparison,
 * suggested budgets and every report format walk these entries instead of naming figures one by one, so adding a
 * figure is adding an entry (plus its value in {@link ResourceUsage}, its {@code @ResourceBudget} attribute and its
 * assertion, which {@code MetricCoverageTests} insists on).
 *
 * <p>Values are in the unit's base unit (bytes, seconds, percent, a count, bytes per second) and NaN when not known
 * (headroom without a memory limit).
 */
@API(status = INTERNAL, since = "0.1")
public enum Metric {

    PEAK_MEMORY(figure("peakMemory", "peak memory", Unit.SIZE, Direction.CEILING, Resource.MEMORY, "peakMemoryBytes")
            .budgetable().read(u -> u.peakMemory().toBytes()).obtained(HowMeasured::peakMemory)
            .method(HowMeasured::workingSet).reachedAt(FigureContext::peakAt).context(FigureContext::memoryLimitAndComposition)
            .live(LiveSample::workingSetBytes).compared(1024 * 1024)
            .gauge("vitals_container_memory_peak_bytes",
                    "Highest memory use (MEM USAGE as docker stats shows it) during the test.")),
    MEMORY_HEADROOM(figure("memoryHeadroom", "memory headroom", Unit.PERCENT, Direction.FLOOR, Resource.MEMORY,
            "memoryHeadroomPercent")
            .budgetable().read(u -> u.memoryHeadroom().map(Percentage::value).orElse(Double.NaN))
            .obtained(HowMeasured::peakMemory).method(HowMeasured::workingSet).reachedAt(FigureContext::peakAt)
            .context(FigureContext::memoryLimit)
            .unknownReason("the container has no memory limit, so it has no headroom")
            .atMost(100.0, "headroom", "a share of the memory limit cannot exceed 100%")
            .gauge("vitals_container_memory_headroom_ratio",
                    "Share of the memory limit left free at the peak; 1 is all of it. Only with a limit.")),
    CPU_TIME(figure("cpuTime", "CPU time", Unit.DURATION, Direction.CEILING, Resource.CPU, "cpuSeconds")
            .budgetable().read(u -> Unit.seconds(u.cpuTime())).method(HowMeasured::cpuCounter)
            .contentionSensitive().compared(0.05)
            .counter("vitals_container_cpu_seconds_total", "CPU time used during the test.")),
    AVERAGE_CPU(figure("averageCpu", "average CPU", Unit.PERCENT, Direction.CEILING, Resource.CPU,
            "averageCpuPercent")
            .budgetable().read(u -> u.averageCpuPercent().value()).method(HowMeasured::averageCpu)
            .contentionSensitive().compared(1.0)
            .gauge("vitals_container_cpu_usage_ratio", "Average CPU use over the test; 1 is one full core.")),
    PEAK_PIDS(figure("peakPids", "peak PIDs", Unit.COUNT, Direction.CEILING, Resource.PIDS, "peakPids")
            .budgetable().read(ResourceUsage::peakPids).sampled().method(HowMeasured::sampled)
            .live(LiveSample::currentPids).compared(2)
            .gauge("vitals_container_pids_peak", "Highest number of tasks (threads) in the container.")),
    BLOCK_READ(bytesMoved("blockRead", "block read", Resource.BLOCK_IO, "blockReadBytes", ResourceUsage::blockRead,
            HowMeasured::blockCounter, "vitals_container_block_read_bytes_total", "Bytes read from block devices.")),
    BLOCK_WRITE(bytesMoved("blockWrite", "block write", Resource.BLOCK_IO, "blockWriteBytes",
            ResourceUsage::blockWrite, HowMeasured::blockCounter, "vitals_container_block_write_bytes_total",
            "Bytes written to block devices.")),
    NETWORK_RECEIVED(bytesMoved("networkReceived", "network received", Resource.NETWORK, "networkReceivedBytes",
            ResourceUsage::networkReceived, HowMeasured::networkCounter, "vitals_container_network_receive_bytes_total",
            "Bytes received.")),
    NETWORK_SENT(bytesMoved("networkSent", "network sent", Resource.NETWORK, "networkSentBytes",
            ResourceUsage::networkSent, HowMeasured::networkCounter, "vitals_container_network_transmit_bytes_total",
            "Bytes sent.")),
    MEMORY_GROWTH(figure("memoryGrowth", "memory growth", Unit.RATE, Direction.CEILING, Resource.MEMORY,
            "memoryGrowthBytesPerSecond")
            .budgetable().read(u -> u.memoryGrowth().bytesPerSecond()).obtained(u -> Acquisition.FITTED)
            .method(HowMeasured::memoryTrend).contentionSensitive()
            .gauge("vitals_container_memory_growth_bytes_per_second",
                    "Trend of memory use over the test (Theil-Sen slope); negative when it shrank.")),
    THROTTLED_TIME(figure("throttledTime", "throttled time", Unit.DURATION, Direction.CEILING, Resource.CPU,
            "throttledSeconds")
            .budgetable().read(u -> Unit.seconds(u.throttledTime())).method(HowMeasured::throttling)
            .contentionSensitive()
            .counter("vitals_container_cpu_throttled_seconds_total",
                    "Time the container was throttled by its CPU limit.")),
    PEAK_GPU_MEMORY(figure("peakGpuMemory", "peak GPU memory", Unit.SIZE, Direction.CEILING, Resource.GPU,
            "peakGpuMemoryBytes")
            .budgetable().read(u -> u.peakGpuMemory().map(s -> (double) s.toBytes()).orElse(Double.NaN)).sampled()
            .method(u -> u.gpu().describeMemoryMethod()).missingWhere(FigureContext::noGpu, FigureContext::gpuAbsence)
            // GPU figures are compared against a baseline or history only on request (a tolerance of their own,
            // e.g. vitals.baseline.tolerance.peakGpuMemory=10%): their spread has not been measured on a GPU, and a
            // spread nobody measured cannot set a default that fails builds. GPU memory moves in the driver's
            // allocation granules (2 MiB pages), so a smaller move is no change.
            .comparedOnRequest(2 * 1024 * 1024)
            .gauge("vitals_container_gpu_memory_peak_bytes",
                    "Highest GPU memory held by the container's processes (as NVML or nvidia-smi lists its PIDs).")),
    AVERAGE_GPU_UTILIZATION(figure("averageGpuUtilization", "average GPU utilization", Unit.PERCENT,
            Direction.CEILING, Resource.GPU, "averageGpuUtilizationPercent")
            .budgetable().read(u -> u.averageGpuUtilization().map(Percentage::value).orElse(Double.NaN)).sampled()
            .method(u -> u.gpu().describeUtilizationMethod()).missingWhere(FigureContext::noGpu, FigureContext::gpuAbsence)
            .context(FigureContext::gpuSharing).comparedOnRequest(1.0)
            .gauge("vitals_container_gpu_utilization_ratio",
                    "Average utilization of the GPUs the container used (device-wide; shared if others used them).")),
    AVERAGE_GPU_SM_UTILIZATION(figure("averageGpuSmUtilization", "average GPU SM utilization", Unit.PERCENT,
            Direction.CEILING, Resource.GPU, "averageGpuSmUtilizationPercent")
            .budgetable().read(u -> u.gpu().averageSmUtilization().map(Percentage::value).orElse(Double.NaN))
            .sampled().method(u -> u.gpu().describeSmUtilizationMethod()).missingWhere(FigureContext::noSmSamples, FigureContext::gpuAbsence)
            .comparedOnRequest(1.0)
            .gauge("vitals_container_gpu_sm_utilization_ratio",
                    "Average share of the GPUs' SMs the container's own processes used (NVML process samples).")),
    GPU_ENERGY(figure("gpuEnergy", "GPU energy", Unit.ENERGY, Direction.CEILING, Resource.GPU, "gpuEnergyJoules")
            .budgetable().read(u -> u.gpuEnergy().map(Energy::toJoules).orElse(Double.NaN)).sampled()
            .method(u -> u.gpu().describeEnergyMethod()).missingWhere(FigureContext::noGpu, FigureContext::gpuAbsence)
            .context(FigureContext::gpuSharing).comparedOnRequest(1.0)
            .counter("vitals_container_gpu_energy_joules_total",
                    "Energy of the GPUs the container used, integrated from power samples (device-wide).")),
    /** How long the container was measured; no budget (use JUnit's {@code @Timeout}), compared only on request. */
    WALL_TIME(figure("wallTime", "wall time", Unit.DURATION, Direction.CEILING, Resource.TIME, "wallSeconds")
            .read(u -> Unit.seconds(u.wallTime())).method(HowMeasured::wallClock).comparedOnRequest(0.1)
            .gauge("vitals_container_wall_seconds", "How long the container was measured during the test.")),
    MAJOR_PAGE_FAULTS(figure("majorPageFaults", "major page faults", Unit.COUNT, Direction.CEILING, Resource.MEMORY,
            "majorPageFaults")
            .budgetable().from(FigureSource.memoryStat("total_pgmajfault", "pgmajfault", Aggregation.DELTA))
            // how much it moves between runs of one workload has not been measured: compared on request only
            .comparedOnRequest(100)
            .counter("vitals_container_memory_major_page_faults_total",
                    "Page faults the kernel served by reading from disk (memory-mapped files, pages reclaimed "
                            + "under the memory limit); memory.stat pgmajfault.")),
    PEAK_ANONYMOUS_MEMORY(figure("peakAnonymousMemory", "anonymous memory at the peak", Unit.SIZE,
            Direction.CEILING, Resource.MEMORY, "peakAnonymousMemoryBytes")
            .from(FigureSource.memoryStat("total_rss", "anon", Aggregation.AT_PEAK)).detail()
            .gauge("vitals_container_memory_peak_anonymous_bytes",
                    "Anonymous memory (heaps, tensors) at the reading with the highest working set.")),
    PEAK_PAGE_CACHE(figure("peakPageCache", "page cache at the peak", Unit.SIZE, Direction.CEILING,
            Resource.MEMORY, "peakPageCacheBytes")
            .from(FigureSource.memoryStat("total_cache", "file", Aggregation.AT_PEAK)).detail()
            .gauge("vitals_container_memory_peak_page_cache_bytes",
                    "Page cache, shared memory included, at the reading with the highest working set.")),
    PEAK_SHARED_MEMORY(figure("peakSharedMemory", "shared memory at the peak", Unit.SIZE, Direction.CEILING,
            Resource.MEMORY, "peakSharedMemoryBytes")
            .from(FigureSource.memoryStat("total_shmem", "shmem", Aggregation.AT_PEAK)).detail()
            .gauge("vitals_container_memory_peak_shared_bytes",
                    "Shared memory (/dev/shm, tmpfs) at the reading with the highest working set; part of the "
                            + "page cache.")),
    PEAK_KERNEL_MEMORY(figure("peakKernelMemory", "kernel memory at the peak", Unit.SIZE, Direction.CEILING,
            Resource.MEMORY, "peakKernelMemoryBytes")
            .from(FigureSource.v2MemoryStat("kernel", Aggregation.AT_PEAK).v1File("memory.kmem.usage_in_bytes"))
            .detail()
            .gauge("vitals_container_memory_peak_kernel_bytes",
                    "Kernel memory charged to the container (slab, stacks, page tables, sockets) at the reading "
                            + "with the highest working set."));

    /** Why the kernel's high-water mark, printed beside a memory figure, is not what a budget judges. */
    public static final String HIGH_WATER_MARK_NOT_JUDGED = HowMeasured.HIGH_WATER_MARK_NOT_JUDGED;

    private static final List<Metric> ALL = List.of(values());
    // looked up per key and per container of every test, and by every report: worked out once
    private static final List<Metric> BUDGETABLE = ALL.stream().filter(Metric::isBudgetable).toList();
    private static final List<Metric> COMPARED = ALL.stream().filter(Metric::isCompared).toList();
    private static final List<Metric> SOURCED = ALL.stream().filter(m -> m.spec.source.isPresent()).toList();
    private static final List<Metric> TABLED = ALL.stream().filter(m -> !m.spec.detail).toList();
    private static final List<Metric> AT_PEAK = SOURCED.stream()
            .filter(m -> m.spec.source.orElseThrow().aggregation() == Aggregation.AT_PEAK).toList();
    private static final Map<String, Metric> BY_KEY = ALL.stream().collect(Collectors.toUnmodifiableMap(Metric::key,
            metric -> metric));

    private final MetricSpec spec;

    Metric(MetricSpec spec) {
        this.spec = spec.sourcedAs(this).complete();
    }

    /** The name in settings keys, JSON, history files and messages, e.g. {@code peakMemory}. */
    public String key() {
        return spec.key;
    }

    /** The {@code @ResourceBudget} attribute (the same as the key); empty for a figure without budgets. */
    public Optional<String> budgetAttribute() {
        return spec.attribute;
    }

    /** The {@code @ResourceBudget} attribute; throws for a figure without budgets. */
    public String attribute() {
        return spec.attribute.orElseThrow(() -> new IllegalStateException(spec.key + " takes no budget"));
    }

    public boolean isBudgetable() {
        return spec.attribute.isPresent();
    }

    /** Words for sentences: "peak memory". */
    public String label() {
        return spec.label;
    }

    /** The label as a table heading: "Peak memory". */
    public String heading() {
        return spec.label.substring(0, 1).toUpperCase(Locale.ROOT) + spec.label.substring(1);
    }

    public Unit unit() {
        return spec.unit;
    }

    public Direction direction() {
        return spec.direction;
    }

    /** True for a floor (headroom must stay above its budget); false for a ceiling. */
    public boolean isFloor() {
        return spec.direction == Direction.FLOOR;
    }

    public Resource resource() {
        return spec.resource;
    }

    /** The field of the run index and of the per-test {@code usage}, e.g. {@code peakMemoryBytes}. */
    public String jsonField() {
        return spec.jsonField;
    }

    /** The figure in its base unit; NaN when unknown. */
    public double read(ResourceUsage usage) {
        return spec.extractor.applyAsDouble(usage);
    }

    /** The figure in its base unit; empty when unknown. */
    public OptionalDouble value(ResourceUsage usage) {
        double value = read(usage);
        return Double.isNaN(value) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** A value of this figure as every report prints it: "812.0 MiB", "12.4 s", "45.2%", "12". */
    public String format(double value) {
        return spec.unit.format(value);
    }

    /** How the figure was obtained for this usage (e.g. peak memory is exact where the kernel keeps a mark). */
    public Acquisition acquisition(ResourceUsage usage) {
        return spec.acquisition.apply(usage);
    }

    /** How it was measured, in words, e.g. "sampled every 50 ms from the host cgroup (v2)". */
    public String method(ResourceUsage usage) {
        return spec.method.apply(usage);
    }

    /** When in the test a peak was reached; empty for totals and averages. */
    public Optional<Duration> reachedAt(ResourceUsage usage) {
        return spec.reachedAt.apply(usage);
    }

    /** What a breach message adds after the figure, e.g. "limit 2.0 GiB". */
    public Optional<String> context(ResourceUsage usage) {
        return spec.context.apply(usage);
    }

    /** Why the figure may be unknown, for a budget that could not be checked. */
    public String unknownReason() {
        return spec.unknownReason;
    }

    /**
     * Why this host cannot measure the figure for {@code usage} (no GPU visible), a reason of the host rather
     * than of the test; empty when it can, and for figures every host measures.
     */
    public Optional<String> unmeasurableReason(ResourceUsage usage) {
        return spec.unmeasurable.apply(usage);
    }

    /**
     * The words a report cell prints where the figure is missing for a reason of the host ("no GPU visible");
     * empty where the report's own mark for an unknown figure ("–") will do.
     */
    public Optional<String> absence(ResourceUsage usage) {
        return Double.isNaN(read(usage)) ? spec.absence.apply(usage) : Optional.empty();
    }

    /** Whether contention for cores inflates the figure (CPU time does; a deterministic allocation does not). */
    public boolean isContentionSensitive() {
        return spec.contentionSensitive;
    }

    /** The figure as one raw sample shows it, for figures a single sample can already break (peaks). */
    public Optional<ToDoubleFunction<LiveSample>> live() {
        return spec.live;
    }

    /** The largest budget that makes sense, where there is one. */
    public Optional<BudgetBound> budgetBound() {
        return spec.bound;
    }

    /** How it is compared with a baseline or history; empty when it is not. */
    public Optional<Comparison> comparison() {
        return spec.comparison;
    }

    public boolean isCompared() {
        return spec.comparison.isPresent();
    }

    /** The noise floor of a compared figure (see {@link Comparison#noiseFloor()}). */
    public double noiseFloor() {
        return spec.comparison.orElseThrow(() -> new IllegalStateException(spec.key + " is not compared"))
                .noiseFloor();
    }

    /** Its Prometheus family. */
    public Exported exported() {
        return spec.exported;
    }

    /** Every figure, in report order. */
    public static List<Metric> all() {
        return ALL;
    }

    /**
     * The figures that are columns of the console, HTML and summary.md tables: all but the details of another
     * figure (the peak's composition), which the JSON files, vitals.prom and the per-test HTML still carry.
     */
    public static List<Metric> tabled() {
        return TABLED;
    }

    /** Whether this figure is a detail of another one rather than a table column (see {@link #tabled()}). */
    public boolean isDetail() {
        return spec.detail;
    }

    /** The figures read from a {@link FigureSource} by the generic readers, in the order of {@link SourcedFigures}. */
    public static List<Metric> sourced() {
        return SOURCED;
    }

    /** Where this figure is read from; empty for figures the probes compute themselves. */
    public Optional<FigureSource> source() {
        return spec.source;
    }

    /** This figure's place in {@link #sourced()}; empty for a figure without a source. */
    public OptionalInt sourceIndex() {
        int index = SourceIndexes.BY_ORDINAL[ordinal()];
        return index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
    }

    /** The figures read at the reading with the highest working set: the peak's composition. */
    public static List<Metric> atPeak() {
        return AT_PEAK;
    }

    /** The figures budgets can be set on. */
    public static List<Metric> budgetable() {
        return BUDGETABLE;
    }

    /** The figures compared with a baseline or history. */
    public static List<Metric> compared() {
        return COMPARED;
    }

    /** The figure with key {@code key}, e.g. {@code peakMemory}. */
    public static Optional<Metric> byKey(String key) {
        return key == null ? Optional.empty() : Optional.ofNullable(BY_KEY.get(key));
    }

    /** The figure whose {@code @ResourceBudget} attribute is {@code attribute}. */
    public static Optional<Metric> byAttribute(String attribute) {
        return ALL.stream().filter(m -> m.spec.attribute.filter(attribute::equals).isPresent()).findFirst();
    }

    // Made on first use, after the entries: an enum's constructor cannot see its static fields.
    private static final class SourceIndexes {
        static final int[] BY_ORDINAL = ALL.stream().mapToInt(SOURCED::indexOf).toArray();
    }
}
