package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.Energy;
import io.vitals.GpuUsage;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.Unit;
import io.vitals.internal.probe.Extra;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.SavedFigures;
import io.vitals.internal.probe.WindowSummary;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.DoubleStream;

import org.apiguardian.api.API;

/**
 * The GPU samples of one measurement window, summed up into a {@link GpuUsage} for the window or a phase of it.
 * Each GPU query counts once, however many readings carry it (fast reads carry the last full read's group over).
 * Not thread-safe: its owner synchronises.
 *
 * <p>Peak memory is the highest of the samples in which the container had a GPU process; average utilisation is
 * the mean of those samples' device utilisation, the SM share the mean of its processes' shares; energy is the
 * difference of the devices' energy counters (NVML) or, without them, integrates their power draw over time
 * (trapezoids between consecutive samples), since {@code nvidia-smi}'s query list has no energy counter on every
 * driver.
 */
@API(status = INTERNAL, since = "0.1")
public final class GpuWindow implements WindowSummary {

    /** The JSON keys of the lanes ({@link #lanes}), which {@link #readBack} reads again. */
    static final String MEMORY_LANE = "gpuMemory";
    static final String UTILIZATION_LANE = "gpuUtilization";
    static final String POWER_LANE = "gpuPower";
    static final String TEMPERATURE_LANE = "gpuTemperature";
    static final String CLOCK_LANE = "gpuSmClock";

    /** About 14 hours at one sample every 500 ms; later samples still count for the reason, not the figures. */
    static final int MAX_SAMPLES = 100_000;

    private record Sample(Duration offset, GpuReading reading) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private long lastQuery = Long.MIN_VALUE;
    private Optional<String> lastReason = Optional.empty();

    /** Adds the GPU group of {@code reading}, taken {@code offset} after the window's start. */
    @Override
    public void add(Duration offset, RawReading reading) {
        Extra<GpuReading> gpu = reading.extra(GpuReading.KEY);
        if (gpu.reason().isPresent()) {
            lastReason = gpu.reason();
            return;
        }
        GpuReading figures = gpu.value().orElseThrow();
        if (figures.queriedAtNanos() == lastQuery || samples.size() >= MAX_SAMPLES) {
            return;
        }
        lastQuery = figures.queriedAtNanos();
        samples.add(new Sample(offset, figures));
    }

    @Override
    public ResourceUsage summarise(ResourceUsage usage) {
        return usage.toBuilder().gpu(usage()).build();
    }

    @Override
    public ResourceUsage summarise(ResourceUsage usage, Duration from, Duration to) {
        return usage.toBuilder().gpu(usage(from, to)).build();
    }

    /** The usage over the whole window. */
    public GpuUsage usage() {
        return usage(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE));
    }

    /** The usage over the samples from {@code from} to {@code to} (offsets from the window's start). */
    public GpuUsage usage(Duration from, Duration to) {
        List<Sample> window = samples.stream()
                .filter(s -> s.offset().compareTo(from) >= 0 && s.offset().compareTo(to) <= 0).toList();
        List<GpuReading> inside = window.stream().map(Sample::reading).toList();
        if (inside.isEmpty()) {
            return GpuUsage.unavailable(lastReason.orElse(GpuUsage.NO_GPU_VISIBLE + ": no GPU sample in this window"));
        }
        long peak = inside.stream().mapToLong(GpuReading::usedMemoryBytes).max().orElse(0);
        OptionalDouble utilization = inside.stream().filter(r -> r.utilizationPercent().isPresent())
                .mapToDouble(r -> r.utilizationPercent().getAsDouble()).average();
        OptionalDouble sm = inside.stream().filter(r -> r.smPercent().isPresent())
                .mapToDouble(r -> r.smPercent().getAsDouble()).average();
        Set<String> devices = new LinkedHashSet<>();
        inside.forEach(r -> devices.addAll(r.devices()));
        Optional<Energy> counted = countedEnergy(inside);
        return new GpuUsage(Optional.of(DataSize.ofBytes(peak)), percent(utilization), percent(sm),
                counted.isPresent() ? counted : energy(inside), counted.isPresent(), List.copyOf(devices),
                inside.stream().anyMatch(GpuReading::shared), inside.size(), Optional.empty(), timeline(window));
    }

    private static Optional<Percentage> percent(OptionalDouble value) {
        return value.isPresent() ? Optional.of(Percentage.of(value.getAsDouble())) : Optional.empty();
    }

    /**
     * The difference of the devices' energy counters between the first and the last sample, where both have them
     * for the same devices: exact, where integrating power samples a second apart is not. Empty otherwise.
     */
    static Optional<Energy> countedEnergy(List<GpuReading> readings) {
        GpuReading first = readings.get(0);
        GpuReading last = readings.get(readings.size() - 1);
        if (readings.size() < 2 || first.energyJoules().isEmpty() || last.energyJoules().isEmpty()
                || !first.devices().equals(last.devices())) {
            return Optional.empty();
        }
        return Optional.of(Energy.ofJoules(Math.max(0, last.energyJoules().getAsDouble()
                - first.energyJoules().getAsDouble())));
    }

    /**
     * The window's samples as the usage's timeline; beyond {@link GpuUsage#MAX_TIMELINE}, consecutive samples are
     * merged (the first one's offset, the highest memory and temperature, the mean of the rest), so that no peak is
     * averaged away.
     */
    private static List<GpuUsage.Sample> timeline(List<Sample> window) {
        int per = (window.size() + GpuUsage.MAX_TIMELINE - 1) / GpuUsage.MAX_TIMELINE;
        List<GpuUsage.Sample> timeline = new ArrayList<>();
        for (int start = 0; start < window.size(); start += per) {
            List<GpuReading> group = window.subList(start, Math.min(window.size(), start + per)).stream()
                    .map(Sample::reading).toList();
            long memory = group.stream().mapToLong(GpuReading::usedMemoryBytes).max().orElse(0);
            timeline.add(new GpuUsage.Sample(window.get(start).offset(), DataSize.ofBytes(memory),
                    percent(mean(group, r -> r.device().utilizationPercent())),
                    percent(mean(group, r -> r.device().memoryUtilizationPercent())),
                    percent(mean(group, GpuReading::smPercent)), mean(group, r -> r.device().powerWatts()),
                    present(group, r -> r.device().temperatureCelsius()).max(),
                    mean(group, r -> r.device().smClockMHz())));
        }
        return timeline;
    }

    private static DoubleStream present(List<GpuReading> readings, Function<GpuReading, OptionalDouble> figure) {
        return readings.stream().map(figure).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble);
    }

    private static OptionalDouble mean(List<GpuReading> readings, Function<GpuReading, OptionalDouble> figure) {
        return present(readings, figure).average();
    }

    /**
     * The lanes of the charts and the JSON: the container's GPU memory; utilisation (the device's, its memory's,
     * and the container's SM share); power; temperature; SM clock. A lane none of whose samples has a figure is left
     * out, and so is every lane without GPU samples.
     */
    static List<Lane> lanes(GpuUsage usage) {
        List<GpuUsage.Sample> samples = usage.timeline();
        List<Duration> offsets = samples.stream().map(GpuUsage.Sample::offset).toList();
        List<Lane> lanes = new ArrayList<>();
        lane(lanes, MEMORY_LANE, "GPU memory (the container's processes)", Unit.SIZE,
                List.of(Metric.PEAK_GPU_MEMORY.key()), offsets,
                series("memory", "GPU memory", samples, s -> OptionalDouble.of(s.memory().toBytes())));
        lane(lanes, UTILIZATION_LANE, "GPU utilization %", Unit.PERCENT,
                List.of(Metric.AVERAGE_GPU_UTILIZATION.key(), Metric.AVERAGE_GPU_SM_UTILIZATION.key()), offsets,
                series("device", "device (device-wide)", samples, s -> value(s.utilization())),
                series("memory", "memory (device-wide)", samples, s -> value(s.memoryUtilization())),
                series("sm", "SM share (the container's)", samples, s -> value(s.smShare())));
        lane(lanes, POWER_LANE, "GPU power, W (device-wide)", Unit.COUNT, List.of(), offsets,
                series("power", "power", samples, GpuUsage.Sample::powerWatts));
        lane(lanes, TEMPERATURE_LANE, "GPU temperature, °C (hottest device)", Unit.COUNT, List.of(), offsets,
                series("temperature", "temperature", samples, GpuUsage.Sample::temperatureCelsius));
        lane(lanes, CLOCK_LANE, "SM clock, MHz (device-wide)", Unit.COUNT, List.of(), offsets,
                series("clock", "SM clock", samples, GpuUsage.Sample::smClockMHz));
        return lanes;
    }

    private static void lane(List<Lane> lanes, String key, String title, Unit unit, List<String> budgets,
            List<Duration> offsets, Lane.Series... series) {
        List<Lane.Series> drawn = java.util.Arrays.stream(series).filter(s -> !s.isBlank()).toList();
        if (!offsets.isEmpty() && !drawn.isEmpty()) {
            lanes.add(new Lane(key, title, unit, budgets, offsets, drawn));
        }
    }

    private static Lane.Series series(String key, String label, List<GpuUsage.Sample> samples,
            Function<GpuUsage.Sample, OptionalDouble> figure) {
        return new Lane.Series(key, label, samples.stream().map(figure)
                .map(v -> v.isPresent() ? v.getAsDouble() : Double.NaN).toList());
    }

    private static OptionalDouble value(Optional<Percentage> percent) {
        return percent.isPresent() ? OptionalDouble.of(percent.get().value()) : OptionalDouble.empty();
    }

    // The samples again from the saved lanes; none where the report has no GPU memory lane.
    private static List<GpuUsage.Sample> readBackTimeline(SavedFigures saved) {
        Optional<Lane> memory = saved.lane(MEMORY_LANE);
        if (memory.isEmpty()) {
            return List.of();
        }
        List<Duration> offsets = memory.get().offsets();
        // each series read once, not once per sample (a lane is parsed from the JSON on every call)
        List<Double> bytes = series(saved, offsets, MEMORY_LANE, "memory");
        List<Double> device = series(saved, offsets, UTILIZATION_LANE, "device");
        List<Double> memoryBusy = series(saved, offsets, UTILIZATION_LANE, "memory");
        List<Double> sm = series(saved, offsets, UTILIZATION_LANE, "sm");
        List<Double> power = series(saved, offsets, POWER_LANE, "power");
        List<Double> temperature = series(saved, offsets, TEMPERATURE_LANE, "temperature");
        List<Double> clock = series(saved, offsets, CLOCK_LANE, "clock");
        List<GpuUsage.Sample> timeline = new ArrayList<>();
        for (int i = 0; i < offsets.size(); i++) {
            timeline.add(new GpuUsage.Sample(offsets.get(i),
                    DataSize.ofBytes(Math.round(figure(bytes, i).orElse(0))), percent(figure(device, i)),
                    percent(figure(memoryBusy, i)), percent(figure(sm, i)), figure(power, i),
                    figure(temperature, i), figure(clock, i)));
        }
        return timeline;
    }

    // The saved series, or none where its lane or the series is missing or the lane has other offsets.
    private static List<Double> series(SavedFigures saved, List<Duration> offsets, String lane, String series) {
        return saved.lane(lane).filter(l -> l.offsets().equals(offsets)).flatMap(l -> l.series(series))
                .map(Lane.Series::values).orElse(List.of());
    }

    private static OptionalDouble figure(List<Double> values, int i) {
        return i < values.size() && !Double.isNaN(values.get(i)) ? OptionalDouble.of(values.get(i))
                : OptionalDouble.empty();
    }

    /**
     * The GPU figures as a report saved them under the GPU metrics' fields; the devices, sharing and sample count
     * are not saved and read as none. A report from before GPU figures has none of the fields: "not measured".
     */
    static GpuUsage readBack(SavedFigures saved) {
        OptionalDouble memory = saved.value(Metric.PEAK_GPU_MEMORY.jsonField());
        if (memory.isEmpty()) {
            return saved.unavailableReason(Metric.PEAK_GPU_MEMORY.jsonField()).map(GpuUsage::unavailable)
                    .orElseGet(GpuUsage::notMeasured);
        }
        OptionalDouble energy = saved.value(Metric.GPU_ENERGY.jsonField());
        return new GpuUsage(Optional.of(DataSize.ofBytes(Math.round(memory.getAsDouble()))),
                percent(saved.value(Metric.AVERAGE_GPU_UTILIZATION.jsonField())),
                percent(saved.value(Metric.AVERAGE_GPU_SM_UTILIZATION.jsonField())),
                energy.isEmpty() ? Optional.empty() : Optional.of(Energy.ofJoules(energy.getAsDouble())), false,
                List.of(), false, 0, Optional.empty(), readBackTimeline(saved));
    }

    /** Trapezoids of power over time between consecutive samples that both report power; empty under two. */
    static Optional<Energy> energy(List<GpuReading> readings) {
        double joules = 0;
        int intervals = 0;
        for (int i = 1; i < readings.size(); i++) {
            GpuReading a = readings.get(i - 1);
            GpuReading b = readings.get(i);
            if (a.powerWatts().isPresent() && b.powerWatts().isPresent()) {
                double seconds = (b.queriedAtNanos() - a.queriedAtNanos()) / 1e9;
                joules += seconds * (a.powerWatts().getAsDouble() + b.powerWatts().getAsDouble()) / 2;
                intervals++;
            }
        }
        return intervals == 0 ? Optional.empty() : Optional.of(Energy.ofJoules(Math.max(0, joules)));
    }
}
