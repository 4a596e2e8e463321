package io.vitals.internal.metric;

import io.vitals.ResourceUsage;

import java.time.Duration;
import java.util.Optional;

/**
 * The per-usage words of the {@link Metric} entries that need more than their method: when a peak was reached, what
 * a breach message adds after a figure, and why a GPU figure is missing. Kept out of the table so that it reads as
 * one entry per figure.
 */
final class FigureContext {

    private FigureContext() {
    }

    static Optional<Duration> peakAt(ResourceUsage usage) {
        return Optional.of(usage.peak().at());
    }

    // A GPU figure is missing because no GPU was seen: the host's shape, not the test's doing.
    static Optional<String> noGpu(ResourceUsage usage) {
        return usage.gpu().unavailableReason();
    }

    // The SM share needs NVML's per-process samples, which nvidia-smi's queries and MIG instances do not give.
    static Optional<String> noSmSamples(ResourceUsage usage) {
        return noGpu(usage).or(() -> usage.gpu().averageSmUtilization().isPresent() ? Optional.empty()
                : Optional.of("the GPU driver kept no per-process SM samples (nvidia-smi gives none, nor does a MIG "
                        + "instance): read GPU figures from NVML (vitals.gpu=nvml) on a whole GPU"));
    }

    static Optional<String> gpuAbsence(ResourceUsage usage) {
        return Optional.of(usage.gpu().absence());
    }

    static Optional<String> gpuSharing(ResourceUsage usage) {
        return Optional.of(usage.gpu().deviceShared() ? "device-wide, shared with other processes" : "device-wide");
    }

    static Optional<String> memoryLimit(ResourceUsage usage) {
        return Optional.of("limit " + usage.memoryLimit().map(Object::toString).orElse("none"));
    }

    // The peak's composition answers the first question about a broken memory budget: what filled it.
    static Optional<String> memoryLimitAndComposition(ResourceUsage usage) {
        return Optional.of(memoryLimit(usage).orElseThrow() + PeakComposition.describe(usage).map(c -> "; " + c)
                .orElse(""));
    }
}
