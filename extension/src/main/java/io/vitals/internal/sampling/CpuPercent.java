package io.vitals.internal.sampling;

import io.vitals.internal.probe.CpuReading;
import io.vitals.internal.probe.RawReading;

/**
 * CPU % between two readings, 100 % being one core, as docker stats reports it.
 *
 * <p>With the Engine API we apply docker's own rule: {@code Δcontainer / Δhost × onlineCpus × 100}, where the host
 * figure comes from {@code /proc/stat} in 10 ms ticks. With host probes, sampled every few milliseconds, those ticks
 * would quantise the result badly (a 50 ms window holds only 10 ticks on 2 CPUs), so we divide by the monotonic
 * wall time between the readings instead. Both estimate the same quantity: Δhost / onlineCpus is wall time, minus
 * the steal time docker leaves out.
 */
final class CpuPercent {

    private CpuPercent() {
    }

    static double between(RawReading previous, RawReading current) {
        CpuReading now = current.cpu();
        CpuReading then = previous.cpu();
        long cpuDelta = now.totalNanos() - then.totalNanos();
        if (cpuDelta <= 0) {
            return 0.0;
        }
        if (now.hostNanos().isPresent() && then.hostNanos().isPresent()) {
            long hostDelta = now.hostNanos().getAsLong() - then.hostNanos().getAsLong();
            if (hostDelta > 0) {
                return (double) cpuDelta / hostDelta * now.onlineCpus() * 100.0;
            }
        }
        long wallDelta = current.monotonicNanos() - previous.monotonicNanos();
        return wallDelta <= 0 ? 0.0 : 100.0 * cpuDelta / wallDelta;
    }
}
