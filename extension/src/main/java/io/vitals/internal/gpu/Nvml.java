package io.vitals.internal.gpu;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * GPU figures from NVML, the library the driver ships ({@code libnvidia-ml.so.1}) and {@code nvidia-smi} is built
 * on: the same figures without starting a process per query. Loaded only where the library is; elsewhere
 * {@link #load} says why and the run falls back to {@code nvidia-smi} or to "no GPU visible".
 *
 * <p>A figure a device does not report ({@code NVML_ERROR_NOT_SUPPORTED}, as power on some boards and utilisation
 * under MIG) is empty, never zero; any other error fails the query, naming the call.
 */
final class Nvml implements GpuDriver {

    /** The library as the driver installs it; the unversioned name only exists with the development files. */
    static final String DEFAULT_LIBRARY = "libnvidia-ml.so.1";
    // Processes that start between the count and the list: room for a few more, then one more try.
    private static final int SPARE_PROCESSES = 8;
    private static final double MIB = 1024 * 1024;

    private final NvmlLibrary nvml;
    private final String name;

    Nvml(NvmlLibrary nvml, String library) {
        this.nvml = nvml;
        this.name = "NVML (" + library + ")";
    }

    /**
     * Loads {@code library} (a name the dynamic loader finds, or a path) and initialises NVML.
     *
     * @throws IOException when the library is not there or NVML does not initialise (no driver loaded)
     */
    static Nvml load(String library) throws IOException {
        NvmlLibrary nvml;
        try {
            nvml = Native.load(library, NvmlLibrary.class);
        } catch (UnsatisfiedLinkError e) {
            throw new IOException(library + " cannot be loaded: " + firstLine(e.getMessage()), e);
        }
        Nvml loaded = new Nvml(nvml, library);
        loaded.check("nvmlInit_v2", nvml.nvmlInit_v2());
        return loaded;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GpuAttribution.Query query(long nowNanos) throws IOException {
        IntByReference count = new IntByReference();
        check("nvmlDeviceGetCount_v2", nvml.nvmlDeviceGetCount_v2(count));
        List<NvidiaSmiOutput.Device> devices = new ArrayList<>();
        List<NvidiaSmiOutput.Process> processes = new ArrayList<>();
        for (int index = 0; index < count.getValue(); index++) {
            PointerByReference handle = new PointerByReference();
            check("nvmlDeviceGetHandleByIndex_v2", nvml.nvmlDeviceGetHandleByIndex_v2(index, handle));
            Pointer device = handle.getValue();
            String uuid = uuid(device);
            devices.add(device(device, uuid, index));
            processes.addAll(processes(device, uuid));
        }
        return new GpuAttribution.Query(nowNanos, devices, processes, name);
    }

    private String uuid(Pointer device) throws IOException {
        byte[] buffer = new byte[NvmlLibrary.UUID_BUFFER_SIZE];
        check("nvmlDeviceGetUUID", nvml.nvmlDeviceGetUUID(device, buffer, buffer.length));
        int end = 0;
        while (end < buffer.length && buffer[end] != 0) {
            end++;
        }
        return new String(buffer, 0, end, StandardCharsets.US_ASCII);
    }

    private NvidiaSmiOutput.Device device(Pointer device, String uuid, int index) throws IOException {
        NvmlLibrary.Utilization utilization = new NvmlLibrary.Utilization();
        boolean busy = optional("nvmlDeviceGetUtilizationRates", nvml.nvmlDeviceGetUtilizationRates(device,
                utilization));
        NvmlLibrary.Memory memory = new NvmlLibrary.Memory();
        boolean memoryKnown = optional("nvmlDeviceGetMemoryInfo", nvml.nvmlDeviceGetMemoryInfo(device, memory));
        IntByReference milliwatts = new IntByReference();
        boolean power = optional("nvmlDeviceGetPowerUsage", nvml.nvmlDeviceGetPowerUsage(device, milliwatts));
        IntByReference celsius = new IntByReference();
        boolean temperature = optional("nvmlDeviceGetTemperature", nvml.nvmlDeviceGetTemperature(device,
                NvmlLibrary.TEMPERATURE_GPU, celsius));
        IntByReference megahertz = new IntByReference();
        boolean clock = optional("nvmlDeviceGetClockInfo", nvml.nvmlDeviceGetClockInfo(device, NvmlLibrary.CLOCK_SM,
                megahertz));
        return new NvidiaSmiOutput.Device(uuid, index,
                busy ? OptionalDouble.of(utilization.gpu) : OptionalDouble.empty(),
                busy ? OptionalDouble.of(utilization.memory) : OptionalDouble.empty(),
                power ? OptionalDouble.of(Integer.toUnsignedLong(milliwatts.getValue()) / 1000.0)
                        : OptionalDouble.empty(),
                memoryKnown ? OptionalLong.of(Math.round(memory.used / MIB)) : OptionalLong.empty(),
                memoryKnown ? OptionalLong.of(Math.round(memory.total / MIB)) : OptionalLong.empty(),
                temperature ? OptionalDouble.of(celsius.getValue()) : OptionalDouble.empty(),
                clock ? OptionalDouble.of(megahertz.getValue()) : OptionalDouble.empty());
    }

    private List<NvidiaSmiOutput.Process> processes(Pointer device, String uuid) throws IOException {
        IntByReference count = new IntByReference(0);
        int result = nvml.nvmlDeviceGetComputeRunningProcesses_v3(device, count, null);
        for (int attempt = 0; result == NvmlLibrary.ERROR_INSUFFICIENT_SIZE && attempt < 3; attempt++) {
            int room = count.getValue() + SPARE_PROCESSES;
            NvmlLibrary.ProcessInfo[] infos = (NvmlLibrary.ProcessInfo[]) new NvmlLibrary.ProcessInfo().toArray(room);
            count.setValue(room);
            result = nvml.nvmlDeviceGetComputeRunningProcesses_v3(device, count, infos);
            if (result == NvmlLibrary.SUCCESS) {
                List<NvidiaSmiOutput.Process> processes = new ArrayList<>();
                for (int i = 0; i < count.getValue(); i++) {
                    long bytes = infos[i].usedGpuMemory;
                    processes.add(new NvidiaSmiOutput.Process(Integer.toUnsignedLong(infos[i].pid),
                            bytes == NvmlLibrary.VALUE_NOT_AVAILABLE ? OptionalLong.empty() : OptionalLong.of(bytes),
                            uuid));
                }
                return processes;
            }
        }
        check("nvmlDeviceGetComputeRunningProcesses_v3", result);
        return List.of(); // success on the first call: no process at all
    }

    // A figure the device does not report is missing, not an error.
    private boolean optional(String call, int result) throws IOException {
        if (result == NvmlLibrary.ERROR_NOT_SUPPORTED) {
            return false;
        }
        check(call, result);
        return true;
    }

    private void check(String call, int result) throws IOException {
        if (result != NvmlLibrary.SUCCESS) {
            throw new IOException(name + " " + call + " failed: " + nvml.nvmlErrorString(result) + " (" + result
                    + ")");
        }
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
