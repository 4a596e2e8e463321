package io.vitals.internal.gpu;

import java.io.IOException;

/**
 * Where GPU figures come from: NVML, the driver's own library ({@link Nvml}), or the {@code nvidia-smi} binary on
 * top of it ({@link NvidiaSmi}). One query lists every device and every compute process, by host PID.
 */
interface GpuDriver {

    /** The driver's name in messages: "NVML (libnvidia-ml.so.1)", "nvidia-smi". */
    String name();

    /**
     * Lists the devices and compute processes now.
     *
     * @param nowNanos {@link System#nanoTime()} of the query, which the query keeps
     * @throws IOException when the driver does not answer, or answers what cannot be read
     */
    GpuAttribution.Query query(long nowNanos) throws IOException;
}
