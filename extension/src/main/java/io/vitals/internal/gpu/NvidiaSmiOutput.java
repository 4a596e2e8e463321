package io.vitals.internal.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Parses the two queries Vitals makes, in {@code --format=csv,noheader,nounits}: one line per device or process,
 * fields separated by ", ". A field a driver cannot fill reads {@code [N/A]}, {@code [Not Supported]} (MIG, older
 * boards) or, on some drivers, {@code N/A}; those become empty values, never zeros. Lines that do not have the
 * expected fields fail with the line quoted: a changed format must not read as an idle GPU.
 */
final class NvidiaSmiOutput {

    /** The {@code --query-gpu} fields, in the order {@link #devices} expects them. */
    static final String GPU_FIELDS = "uuid,index,utilization.gpu,utilization.memory,power.draw,memory.used,"
            + "memory.total,temperature.gpu,clocks.sm";

    /** The {@code --query-compute-apps} fields, in the order {@link #processes} expects them. */
    static final String APP_FIELDS = "pid,used_memory,gpu_uuid";

    private NvidiaSmiOutput() {
    }

    /** One GPU; MiB figures as nvidia-smi gives them without units; the energy counter only from NVML. */
    record Device(String uuid, int index, OptionalDouble utilizationPercent, OptionalDouble memoryUtilizationPercent,
            OptionalDouble powerWatts, OptionalLong memoryUsedMiB, OptionalLong memoryTotalMiB,
            OptionalDouble temperatureCelsius, OptionalDouble smClockMHz, OptionalLong energyMillijoules) {
    }

    /**
     * One compute process, by host PID (the driver knows no PID namespaces), and the bytes it holds on the device;
     * empty where the driver does not say (MIG without privileges).
     */
    record Process(long pid, OptionalLong usedMemoryBytes, String gpuUuid) {
    }

    static List<Device> devices(String text) {
        List<Device> devices = new ArrayList<>();
        for (String[] f : lines(text, 9, GPU_FIELDS)) {
            devices.add(new Device(f[0], (int) whole(f[1], f).orElse(-1), decimal(f[2], f), decimal(f[3], f),
                    decimal(f[4], f), whole(f[5], f), whole(f[6], f), decimal(f[7], f), decimal(f[8], f),
                    OptionalLong.empty())); // no energy counter among the query fields of every driver
        }
        return devices;
    }

    static List<Process> processes(String text) {
        List<Process> processes = new ArrayList<>();
        for (String[] f : lines(text, 3, APP_FIELDS)) {
            OptionalLong pid = whole(f[0], f);
            if (pid.isEmpty()) {
                continue; // no PID to attribute (MIG without privileges shows none)
            }
            OptionalLong mib = whole(f[1], f);
            processes.add(new Process(pid.getAsLong(),
                    mib.isPresent() ? OptionalLong.of(mib.getAsLong() * 1024 * 1024) : OptionalLong.empty(), f[2]));
        }
        return processes;
    }

    private static List<String[]> lines(String text, int fields, String expected) {
        List<String[]> lines = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (line.isBlank() || line.startsWith("No running")) {
                continue; // older drivers print "No running processes found" even with noheader
            }
            String[] parts = line.split(",", -1);
            if (parts.length != fields) {
                throw new IllegalArgumentException("Unexpected nvidia-smi line '" + line + "': expected " + fields
                        + " fields (" + expected + ")");
            }
            for (int i = 0; i < parts.length; i++) {
                parts[i] = parts[i].strip();
            }
            lines.add(parts);
        }
        return lines;
    }

    private static boolean missing(String field) {
        return field.isEmpty() || field.startsWith("[") || field.equals("N/A");
    }

    private static OptionalDouble decimal(String field, String[] line) {
        if (missing(field)) {
            return OptionalDouble.empty();
        }
        try {
            return OptionalDouble.of(Double.parseDouble(field));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Unexpected nvidia-smi field '" + field + "' in '"
                    + String.join(", ", line) + "': expected a number, [N/A] or [Not Supported]", e);
        }
    }

    private static OptionalLong whole(String field, String[] line) {
        OptionalDouble value = decimal(field, line);
        return value.isPresent() ? OptionalLong.of(Math.round(value.getAsDouble())) : OptionalLong.empty();
    }
}
