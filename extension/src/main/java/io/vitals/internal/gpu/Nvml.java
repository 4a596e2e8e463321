package io.vitals.internal.gpu;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * GPU figures from NVML, the library the driver ships ({@code libnvidia-ml.so.1}) and {@code nvidia-smi} is built
 * on: the same figures without starting a process per query. Loaded only where the library is (looked for first,
 * so that hosts without it never load JNA); elsewhere {@link #load} says why and the run falls back to
 * {@code nvidia-smi} or to "no GPU visible".
 *
 * <p>A figure a device does not report ({@code NVML_ERROR_NOT_SUPPORTED}, as power on some boards and utilisation
 * under MIG) is empty, never zero; any other error fails the query, naming the call. Not thread-safe (it remembers
 * the newest per-process sample of each device): its {@link GpuSource} queries under a lock.
 */
final class Nvml implements GpuDriver {

    /** The library as the driver installs it; the unversioned name only exists with the development files. */
    static final String DEFAULT_LIBRARY = "libnvidia-ml.so.1";
    /**
     * Where the driver's installers and the NVIDIA container toolkit put the library: Debian/Ubuntu, Fedora/RHEL,
     * WSL 2, and the toolkit's mount inside containers.
     */
    static final List<String> LIBRARY_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu", "/lib64", "/usr/lib/wsl/lib", "/usr/local/nvidia/lib64");

    // Processes that start between the count and the list: room for a few more, then one more try.
    private static final int SPARE_PROCESSES = 8;
    private static final double MIB = 1024 * 1024;

    private final NvmlLibrary nvml;
    private final String name;
    // per device, the newest process sample seen: the next query asks for the samples after it
    private final Map<String, Long> lastSampleMicros = new HashMap<>();

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
        // look before loading: on a host without the driver, JNA (and its own native part) is never touched
        if (!present(library, System.getenv("LD_LIBRARY_PATH"))) {
            throw new IOException(library + " not found"
                    + (library.contains("/") ? "" : " on LD_LIBRARY_PATH or in " + String.join(", ", LIBRARY_DIRS)));
        }
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

    /** Whether {@code library} (a path, or a file name looked up on {@code ldLibraryPath} and then the usual dirs) exists. */
    static boolean present(String library, String ldLibraryPath) {
        if (library.contains("/")) {
            return Files.exists(Path.of(library));
        }
        List<String> dirs = new ArrayList<>();
        if (ldLibraryPath != null) {
            dirs.addAll(Arrays.asList(ldLibraryPath.split(":")));
        }
        dirs.addAll(LIBRARY_DIRS);
        return dirs.stream().filter(dir -> !dir.isBlank()).anyMatch(dir -> Files.exists(Path.of(dir, library)));
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
        Map<String, List<GpuAttribution.ProcessSm>> shares = new HashMap<>();
        for (int index = 0; index < count.getValue(); index++) {
            PointerByReference handle = new PointerByReference();
            check("nvmlDeviceGetHandleByIndex_v2", nvml.nvmlDeviceGetHandleByIndex_v2(index, handle));
            Pointer device = handle.getValue();
            String uuid = uuid(device);
            devices.add(device(device, uuid, index));
            processes.addAll(processes(device, uuid));
            smShares(device, uuid).ifPresent(list -> shares.put(uuid, list));
        }
        return new GpuAttribution.Query(nowNanos, devices, processes, name, shares);
    }

    /**
     * Each process's average SM share over the samples since the last query; empty where the device keeps no
     * per-process samples (MIG, older boards). No sample since then ({@code NVML_ERROR_NOT_FOUND}) means no process
     * used the SMs: NVML samples only processes that ran kernels, so they count as 0 %.
     */
    private Optional<List<GpuAttribution.ProcessSm>> smShares(Pointer device, String uuid) throws IOException {
        long since = lastSampleMicros.getOrDefault(uuid, 0L);
        Listed<NvmlLibrary.ProcessUtilizationSample> samples = list(NvmlLibrary.ProcessUtilizationSample::new,
                (array, count) -> nvml.nvmlDeviceGetProcessUtilization(device, array, count, since));
        if (samples.result() == NvmlLibrary.ERROR_NOT_SUPPORTED) {
            return Optional.empty();
        }
        if (samples.result() == NvmlLibrary.ERROR_NOT_FOUND) {
            return Optional.of(List.of());
        }
        check("nvmlDeviceGetProcessUtilization", samples.result());
        return Optional.of(averageByProcess(uuid, samples.entries()));
    }

    /** One entry point of NVML that fills an array of structures and says how many it filled. */
    @FunctionalInterface
    private interface ListCall<T extends Structure> {
        int call(T[] array, IntByReference count);
    }

    /** What a {@link ListCall} gave: its result code, and the entries it filled where that is success. */
    private record Listed<T>(int result, List<T> entries) {
    }

    /**
     * Asks with no room first, as NVML wants: it says how many entries there are ({@code INSUFFICIENT_SIZE}), or
     * that there are none (success). Then asks with room for a few more, since entries can appear in between, and
     * once more (up to three times) if they did.
     */
    @SuppressWarnings("unchecked")
    private static <T extends Structure> Listed<T> list(Supplier<T> first, ListCall<T> call) {
        IntByReference count = new IntByReference(0);
        int result = call.call(null, count);
        for (int attempt = 0; result == NvmlLibrary.ERROR_INSUFFICIENT_SIZE && attempt < 3; attempt++) {
            int room = count.getValue() + SPARE_PROCESSES;
            T[] array = (T[]) first.get().toArray(room);
            count.setValue(room);
            result = call.call(array, count);
            if (result == NvmlLibrary.SUCCESS) {
                return new Listed<>(result, Arrays.asList(array).subList(0, count.getValue()));
            }
        }
        return new Listed<>(result, List.of());
    }

    private List<GpuAttribution.ProcessSm> averageByProcess(String uuid,
            List<NvmlLibrary.ProcessUtilizationSample> samples) {
        Map<Long, double[]> byPid = new LinkedHashMap<>(); // pid -> {sum, samples}
        long newest = lastSampleMicros.getOrDefault(uuid, 0L);
        for (NvmlLibrary.ProcessUtilizationSample sample : samples) {
            double[] sum = byPid.computeIfAbsent(Integer.toUnsignedLong(sample.pid), pid -> new double[2]);
            sum[0] += Integer.toUnsignedLong(sample.smUtil);
            sum[1]++;
            newest = Math.max(newest, sample.timeStamp);
        }
        lastSampleMicros.put(uuid, newest);
        List<GpuAttribution.ProcessSm> shares = new ArrayList<>();
        byPid.forEach((pid, sum) -> shares.add(new GpuAttribution.ProcessSm(pid, uuid, sum[0] / sum[1])));
        return shares;
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
        LongByReference millijoules = new LongByReference();
        boolean energy = optional("nvmlDeviceGetTotalEnergyConsumption",
                nvml.nvmlDeviceGetTotalEnergyConsumption(device, millijoules));
        return new NvidiaSmiOutput.Device(uuid, index,
                busy ? OptionalDouble.of(utilization.gpu) : OptionalDouble.empty(),
                busy ? OptionalDouble.of(utilization.memory) : OptionalDouble.empty(),
                power ? OptionalDouble.of(Integer.toUnsignedLong(milliwatts.getValue()) / 1000.0)
                        : OptionalDouble.empty(),
                memoryKnown ? OptionalLong.of(Math.round(memory.used / MIB)) : OptionalLong.empty(),
                memoryKnown ? OptionalLong.of(Math.round(memory.total / MIB)) : OptionalLong.empty(),
                temperature ? OptionalDouble.of(celsius.getValue()) : OptionalDouble.empty(),
                clock ? OptionalDouble.of(megahertz.getValue()) : OptionalDouble.empty(),
                energy ? OptionalLong.of(millijoules.getValue()) : OptionalLong.empty());
    }

    private List<NvidiaSmiOutput.Process> processes(Pointer device, String uuid) throws IOException {
        Listed<NvmlLibrary.ProcessInfo> infos = list(NvmlLibrary.ProcessInfo::new,
                (array, count) -> nvml.nvmlDeviceGetComputeRunningProcesses_v3(device, count, array));
        check("nvmlDeviceGetComputeRunningProcesses_v3", infos.result());
        List<NvidiaSmiOutput.Process> processes = new ArrayList<>();
        for (NvmlLibrary.ProcessInfo info : infos.entries()) {
            long bytes = info.usedGpuMemory;
            processes.add(new NvidiaSmiOutput.Process(Integer.toUnsignedLong(info.pid),
                    bytes == NvmlLibrary.VALUE_NOT_AVAILABLE ? OptionalLong.empty() : OptionalLong.of(bytes), uuid));
        }
        return processes;
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
