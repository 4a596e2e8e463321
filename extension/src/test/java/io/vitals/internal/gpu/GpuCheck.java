package io.vitals.internal.gpu;

import io.vitals.internal.probe.ContainerTarget;

import java.util.OptionalLong;

/**
 * For examples/setup/gpu-check.sh on a machine with a GPU: prints the GPU memory (bytes) Vitals' nvidia-smi source
 * attributes to one container. Arguments: the nvidia-smi binary, the container ID, its host PID.
 */
public final class GpuCheck {

    private GpuCheck() {
    }

    public static void main(String[] args) throws Exception {
        ContainerTarget target = new ContainerTarget(args[1], "gpu-check", "?", Long.parseLong(args[2]),
                OptionalLong.empty());
        NvidiaSmiSource source = NvidiaSmiSource.forThisHost(args[0]);
        GpuAttribution.Query query = source.query().orElseThrow(() -> new IllegalStateException("no GPU visible"));
        GpuReading reading = GpuAttribution.attribute(query, new ContainerPids(
                io.vitals.internal.probe.CgroupLocator.forThisHost()).of(target)).value()
                .orElseThrow(() -> new IllegalStateException("no GPU process in the container"));
        System.out.println(reading.usedMemoryBytes());
    }
}
