package io.vitals.internal.gpu;

import io.vitals.internal.probe.ContainerTarget;

import java.util.OptionalLong;

/**
 * For examples/setup/gpu-check.sh on a machine with a GPU: prints the GPU memory (bytes) Vitals' GPU source
 * attributes to one container. Arguments: the driver ({@code nvml} for NVML through libnvidia-ml.so.1, or
 * {@code nvml:<library path>}, or the nvidia-smi binary), the container ID, its host PID.
 */
public final class GpuCheck {

    private GpuCheck() {
    }

    public static void main(String[] args) throws Exception {
        ContainerTarget target = new ContainerTarget(args[1], "gpu-check", "?", Long.parseLong(args[2]),
                OptionalLong.empty());
        GpuDriver driver = args[0].equals("nvml") ? Nvml.load(Nvml.DEFAULT_LIBRARY)
                : args[0].startsWith("nvml:") ? Nvml.load(args[0].substring(5)) : new NvidiaSmi(args[0]);
        GpuSource source = GpuSource.forThisHost(driver);
        GpuAttribution.Query query = source.query().orElseThrow(() -> new IllegalStateException("no GPU visible"));
        GpuReading reading = GpuAttribution.attribute(query, new ContainerPids(
                io.vitals.internal.probe.CgroupLocator.forThisHost()).of(target)).value()
                .orElseThrow(() -> new IllegalStateException("no GPU process in the container"));
        System.out.println(reading.usedMemoryBytes());
    }
}
