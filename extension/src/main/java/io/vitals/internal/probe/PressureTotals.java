package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Cumulative pressure-stall ("PSI") totals in microseconds, from {@code cpu.pressure}, {@code memory.pressure} and
 * {@code io.pressure}. "some" is time in which at least one task stalled on the resource, "full" time in which all
 * non-idle tasks stalled at once. The kernel reports no "full" line for CPU on older releases; it reads as zero.
 */
@API(status = INTERNAL, since = "0.1")
public record PressureTotals(
        long cpuSomeMicros, long cpuFullMicros,
        long memorySomeMicros, long memoryFullMicros,
        long ioSomeMicros, long ioFullMicros) {
}
