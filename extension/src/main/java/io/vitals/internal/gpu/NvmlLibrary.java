package io.vitals.internal.gpu;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import org.apiguardian.api.API;

/**
 * The NVML calls Vitals makes, bound with JNA to the versioned symbols that {@code nvml.h} maps its names to since
 * driver R450 ({@code nvmlInit} is {@code nvmlInit_v2}, and so on). The structures follow {@code nvml.h} field by
 * field; JNA lays them out with the platform's C alignment. {@code NvmlStubTests} checks the layout against a C
 * library compiled from the same declarations.
 */
@API(status = INTERNAL, since = "0.1")
public interface NvmlLibrary extends Library {

    /** {@code NVML_SUCCESS} */
    int SUCCESS = 0;
    /** {@code NVML_ERROR_NOT_SUPPORTED}: the device does not report this (power on some boards, MIG utilisation). */
    int ERROR_NOT_SUPPORTED = 3;
    /** {@code NVML_ERROR_NO_PERMISSION} */
    int ERROR_NO_PERMISSION = 4;
    /** {@code NVML_ERROR_NOT_FOUND}: no process sample since the given time stamp (no process used the SMs). */
    int ERROR_NOT_FOUND = 6;
    /** {@code NVML_ERROR_INSUFFICIENT_SIZE}: the process array was too small; the count says how many there are. */
    int ERROR_INSUFFICIENT_SIZE = 7;
    /** {@code NVML_TEMPERATURE_GPU} */
    int TEMPERATURE_GPU = 0;
    /** {@code NVML_CLOCK_SM} */
    int CLOCK_SM = 1;
    /** {@code NVML_DEVICE_UUID_V2_BUFFER_SIZE} */
    int UUID_BUFFER_SIZE = 96;
    /** {@code NVML_VALUE_NOT_AVAILABLE}, {@code (unsigned long long) -1}: e.g. a process's memory under MIG. */
    long VALUE_NOT_AVAILABLE = -1L;

    int nvmlInit_v2();

    String nvmlErrorString(int result);

    int nvmlDeviceGetCount_v2(IntByReference count);

    int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

    int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

    int nvmlDeviceGetUtilizationRates(Pointer device, Utilization utilization);

    int nvmlDeviceGetMemoryInfo(Pointer device, Memory memory);

    int nvmlDeviceGetPowerUsage(Pointer device, IntByReference milliwatts);

    int nvmlDeviceGetTemperature(Pointer device, int sensor, IntByReference celsius);

    int nvmlDeviceGetClockInfo(Pointer device, int type, IntByReference megahertz);

    /** Millijoules since the driver was loaded (Volta and later). */
    int nvmlDeviceGetTotalEnergyConsumption(Pointer device, LongByReference millijoules);

    /**
     * The per-process samples newer than {@code lastSeenTimeStamp} (microseconds of the CPU clock; 0 for all the
     * driver keeps); {@code samples} as for {@link #nvmlDeviceGetComputeRunningProcesses_v3}.
     */
    int nvmlDeviceGetProcessUtilization(Pointer device, ProcessUtilizationSample[] samples, IntByReference count,
            long lastSeenTimeStamp);

    /** {@code infos} must come from {@link Structure#toArray(int)} (contiguous), or be null with a count of 0. */
    int nvmlDeviceGetComputeRunningProcesses_v3(Pointer device, IntByReference count, ProcessInfo[] infos);

    /** {@code nvmlUtilization_t}: percent of the last sample period (1/6 s to 1 s) the device was busy. */
    @Structure.FieldOrder({"gpu", "memory"})
    class Utilization extends Structure {
        public int gpu;
        public int memory;
    }

    /** {@code nvmlMemory_t}, bytes. */
    @Structure.FieldOrder({"total", "free", "used"})
    class Memory extends Structure {
        public long total;
        public long free;
        public long used;
    }

    /** {@code nvmlProcessUtilizationSample_t}: one process's share of the SMs (percent) in one sample period. */
    @Structure.FieldOrder({"pid", "timeStamp", "smUtil", "memUtil", "encUtil", "decUtil"})
    class ProcessUtilizationSample extends Structure {
        public int pid;
        public long timeStamp;
        public int smUtil;
        public int memUtil;
        public int encUtil;
        public int decUtil;
    }

    /** {@code nvmlProcessInfo_t} (v2 and v3 share it): a host PID and the bytes it holds on the device. */
    @Structure.FieldOrder({"pid", "usedGpuMemory", "gpuInstanceId", "computeInstanceId"})
    class ProcessInfo extends Structure {
        public int pid;
        public long usedGpuMemory;
        public int gpuInstanceId;
        public int computeInstanceId;
    }
}
