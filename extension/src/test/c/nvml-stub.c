/*
 * A stand-in for libnvidia-ml.so.1 with the NVML declarations Vitals binds (nvml.h, the versioned symbols of driver
 * R450 and later), for tests on machines without an NVIDIA GPU. NvmlStub (test code) compiles it with gcc, giving
 * PID_FILE: a file that holds the host PID of the process the first device lists as using 1234 MiB, so that it can
 * be a real container's process. The figures are those of an 80 GB board as nvidia-smi showed them (memory.total
 * 81559 MiB, power.draw 231.45 W); the second device behaves as a MIG instance seen without privileges.
 *
 * The structures are copied from nvml.h field by field: JNA must lay NvmlLibrary's out the same way, or the bytes
 * a process holds (at offset 8 of nvmlProcessInfo_t, after the 4-byte pid and 4 bytes of padding) read wrong.
 */
#include <stdio.h>
#include <string.h>

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st { unsigned int index; } *nvmlDevice_t;
typedef struct { unsigned int gpu; unsigned int memory; } nvmlUtilization_t;
typedef struct { unsigned long long total; unsigned long long free; unsigned long long used; } nvmlMemory_t;
typedef struct {
    unsigned int pid;
    unsigned long long timeStamp;
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
} nvmlProcessUtilizationSample_t;
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_VALUE_NOT_AVAILABLE (~0ULL)
#define MIB (1024ULL * 1024ULL)

#ifndef PID_FILE
#error "compile with -DPID_FILE='\"/path/to/pid\"'"
#endif

static struct nvmlDevice_st devices[2] = {{0}, {1}};
static int initialised;

nvmlReturn_t nvmlInit_v2(void) {
    initialised = 1;
    return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_NOT_FOUND: return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE: return "Insufficient Size";
    default: return "Unknown Error";
    }
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialised) return NVML_ERROR_UNINITIALIZED;
    *count = 2;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (index > 1) return NVML_ERROR_INVALID_ARGUMENT;
    *device = &devices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    const char *id = device->index == 0 ? "GPU-5f1c2d3e-8a9b-4c5d-9e0f-112233445566"
                                        : "MIG-8c1a9f0e-2b3c-5d6e-7f80-91a2b3c4d5e6";
    if (length < strlen(id) + 1) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(uuid, id);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization) {
    if (device->index == 1) return NVML_ERROR_NOT_SUPPORTED;
    utilization->gpu = 42;
    utilization->memory = 10;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory) {
    memory->total = 81559ULL * MIB;
    memory->used = device->index == 0 ? 1746ULL * MIB + 12345 : 0;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *milliwatts) {
    if (device->index == 1) return NVML_ERROR_NOT_SUPPORTED;
    *milliwatts = 231450;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *celsius) {
    *celsius = device->index == 0 ? 50 : 48;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *megahertz) {
    *megahertz = 1500;
    return NVML_SUCCESS;
}

static unsigned int container_pid(void) {
    unsigned int pid = 0;
    FILE *file = fopen(PID_FILE, "r");
    if (file) {
        if (fscanf(file, "%u", &pid) != 1) pid = 0;
        fclose(file);
    }
    return pid;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *count,
                                                     nvmlProcessInfo_t *infos) {
    nvmlProcessInfo_t list[3];
    unsigned int n = 0;
    memset(list, 0, sizeof list);
    if (device->index == 0) {
        unsigned int pid = container_pid();
        if (pid) {
            list[n].pid = pid;
            list[n].usedGpuMemory = 1234ULL * MIB;
            n++;
        }
        list[n].pid = 1; /* a process outside the container on the same device */
        list[n].usedGpuMemory = 512ULL * MIB + 7;
        n++;
    } else {
        list[n].pid = 4242; /* MIG without privileges: the driver does not say how much */
        list[n].usedGpuMemory = NVML_VALUE_NOT_AVAILABLE;
        n++;
    }
    for (unsigned int i = 0; i < n; i++) {
        list[i].gpuInstanceId = 0xFFFFFFFFu;
        list[i].computeInstanceId = 0xFFFFFFFFu;
    }
    if (*count < n) {
        *count = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (n > 0) memcpy(infos, list, n * sizeof(nvmlProcessInfo_t));
    *count = n;
    return NVML_SUCCESS;
}

/* The board's counter climbs 150 J a query; the MIG instance has none. */
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *millijoules) {
    static unsigned long long counter = 5000000ULL;
    if (device->index == 1) return NVML_ERROR_NOT_SUPPORTED;
    counter += 150000ULL;
    *millijoules = counter;
    return NVML_SUCCESS;
}

/*
 * Two samples after lastSeenTimeStamp (microseconds), 1 ms apart: the container's process used 30 % and then 50 %
 * of the SMs (40 % on average), PID 1 10 % each time. The MIG instance keeps no per-process samples.
 */
nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device, nvmlProcessUtilizationSample_t *utilization,
                                             unsigned int *processSamplesCount, unsigned long long lastSeenTimeStamp) {
    nvmlProcessUtilizationSample_t list[4];
    unsigned int n = 0;
    unsigned int pid;
    if (device->index == 1) return NVML_ERROR_NOT_SUPPORTED;
    memset(list, 0, sizeof list);
    pid = container_pid();
    for (unsigned int i = 1; i <= 2; i++) {
        if (pid) {
            list[n].pid = pid;
            list[n].timeStamp = lastSeenTimeStamp + 1000 * i;
            list[n].smUtil = i == 1 ? 30 : 50;
            n++;
        }
        list[n].pid = 1;
        list[n].timeStamp = lastSeenTimeStamp + 1000 * i;
        list[n].smUtil = 10;
        n++;
    }
    if (utilization == NULL || *processSamplesCount < n) {
        *processSamplesCount = n;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(utilization, list, n * sizeof(nvmlProcessUtilizationSample_t));
    *processSamplesCount = n;
    return NVML_SUCCESS;
}
