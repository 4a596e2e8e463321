package io.vitals.internal.gpu;

import io.vitals.GpuUsage;
import io.vitals.internal.probe.Extra;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.DoubleStream;

/**
 * Attributes one GPU query to one container, as dcgm-exporter does (PR #594): the driver lists host PIDs, and the
 * container's processes are the PIDs of its cgroup. Its GPU memory is the sum over its PIDs; utilisation and power
 * are the devices' it used, marked shared where another process used them too.
 */
final class GpuAttribution {

    private GpuAttribution() {
    }

    /**
     * One query's output: every device and every compute process, taken at {@code queriedAtNanos} from
     * {@code driver} ("nvidia-smi", "NVML (libnvidia-ml.so.1)"), which messages name; and, per device that keeps
     * per-process samples, each process's share of its SMs since the previous query (none from nvidia-smi).
     */
    record Query(long queriedAtNanos, List<NvidiaSmiOutput.Device> devices, List<NvidiaSmiOutput.Process> processes,
            String driver, Map<String, List<ProcessSm>> smShares) {
        Query {
            devices = List.copyOf(devices);
            processes = List.copyOf(processes);
            smShares = Map.copyOf(smShares);
        }

        /** A query without per-process SM shares (nvidia-smi). */
        Query(long queriedAtNanos, List<NvidiaSmiOutput.Device> devices, List<NvidiaSmiOutput.Process> processes,
                String driver) {
            this(queriedAtNanos, devices, processes, driver, Map.of());
        }
    }

    /** One process's average share of one device's SMs (percent) over the samples since the previous query. */
    record ProcessSm(long pid, String gpuUuid, double percent) {
    }

    /**
     * The container's GPU figures in {@code query}; unavailable ("no GPU visible …") where there is no GPU or none
     * of {@code pids} runs on one. A process listed on a device the device query missed (it appeared between the
     * two queries) still counts its memory; the device-wide figures are then those of the devices seen.
     */
    static Extra<GpuReading> attribute(Query query, Set<Long> pids) {
        if (query.devices().isEmpty()) {
            return Extra.unavailable(GpuUsage.NO_GPU_VISIBLE + ": " + query.driver() + " lists no GPU");
        }
        long usedBytes = 0;
        int processes = 0;
        Set<String> devices = new LinkedHashSet<>();
        for (NvidiaSmiOutput.Process process : query.processes()) {
            if (pids.contains(process.pid())) {
                processes++;
                usedBytes += process.usedMemoryBytes().orElse(0);
                devices.add(process.gpuUuid());
            }
        }
        if (processes == 0) {
            return Extra.unavailable(GpuUsage.NO_GPU_VISIBLE + " to this container: none of its " + pids.size()
                    + " processes is among the " + query.processes().size() + " GPU processes " + query.driver()
                    + " lists");
        }
        boolean shared = query.processes().stream()
                .anyMatch(p -> devices.contains(p.gpuUuid()) && !pids.contains(p.pid()));
        List<NvidiaSmiOutput.Device> used = new ArrayList<>();
        for (NvidiaSmiOutput.Device device : query.devices()) {
            if (devices.contains(device.uuid())) {
                used.add(device);
            }
        }
        // the container's share of each device it used (its processes' shares summed), averaged over the devices
        OptionalDouble sm = !query.smShares().keySet().containsAll(devices) ? OptionalDouble.empty()
                : OptionalDouble.of(devices.stream().flatMap(d -> query.smShares().get(d).stream())
                        .filter(u -> pids.contains(u.pid())).mapToDouble(ProcessSm::percent).sum() / devices.size());
        return Extra.of(new GpuReading(query.queriedAtNanos(), usedBytes, processes, List.copyOf(devices), shared, sm,
                deviceFigures(used, devices.size())));
    }

    // Means of rates, the sum of power and energy, the hottest temperature; energy only where every device counts it.
    private static DeviceFigures deviceFigures(List<NvidiaSmiOutput.Device> used, int devices) {
        boolean counted = !used.isEmpty() && used.size() == devices
                && used.stream().allMatch(d -> d.energyMillijoules().isPresent());
        return new DeviceFigures(mean(used, NvidiaSmiOutput.Device::utilizationPercent),
                mean(used, NvidiaSmiOutput.Device::memoryUtilizationPercent),
                sum(used, NvidiaSmiOutput.Device::powerWatts),
                present(used, NvidiaSmiOutput.Device::temperatureCelsius).max(),
                mean(used, NvidiaSmiOutput.Device::smClockMHz),
                counted ? OptionalDouble.of(used.stream().mapToLong(d -> d.energyMillijoules().getAsLong()).sum()
                        / 1000.0) : OptionalDouble.empty());
    }

    private static DoubleStream present(List<NvidiaSmiOutput.Device> used,
            Function<NvidiaSmiOutput.Device, OptionalDouble> figure) {
        return used.stream().map(figure).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble);
    }

    private static OptionalDouble mean(List<NvidiaSmiOutput.Device> used,
            Function<NvidiaSmiOutput.Device, OptionalDouble> figure) {
        return present(used, figure).average();
    }

    private static OptionalDouble sum(List<NvidiaSmiOutput.Device> used,
            Function<NvidiaSmiOutput.Device, OptionalDouble> figure) {
        return used.stream().anyMatch(d -> figure.apply(d).isPresent())
                ? OptionalDouble.of(present(used, figure).sum()) : OptionalDouble.empty();
    }
}
