package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * A container's CPU figures at one reading: cumulative time used and time throttled by its CFS quota.
 *
 * <p>Throttling lives here rather than in a group of its own because it is read from the same file as the usage
 * on cgroup v2 ({@code cpu.stat}) and describes the same resource.
 *
 * @param totalNanos cumulative CPU time of all tasks in the container
 * @param userNanos cumulative user CPU time (may be coarser than the total: cgroup v1 counts it in ticks)
 * @param systemNanos cumulative system (kernel-mode) CPU time
 * @param hostNanos host CPU time (docker's {@code system_cpu_usage}), only from the Engine API; named so as not to
 *     be confused with {@code systemNanos}
 * @param onlineCpus CPUs of the host as docker counts them
 * @param periods CFS enforcement periods elapsed
 * @param throttledPeriods periods in which the container was throttled
 * @param throttledNanos total time throttled
 */
@API(status = INTERNAL, since = "0.1")
public record CpuReading(
        long totalNanos,
        long userNanos,
        long systemNanos,
        OptionalLong hostNanos,
        int onlineCpus,
        long periods,
        long throttledPeriods,
        long throttledNanos) {

    public CpuReading {
        Objects.requireNonNull(hostNanos, "hostNanos");
    }

    /** A builder with every figure zero and no host time; probes set what they read. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * These figures with the usage a fast (tiered) read refreshes replaced and throttling carried over: on most
     * sampler ticks only the usage is read again, so this keeps a tick to one small record.
     */
    public CpuReading withUsage(long totalNanos, long userNanos, long systemNanos) {
        return new CpuReading(totalNanos, userNanos, systemNanos, hostNanos, onlineCpus, periods, throttledPeriods,
                throttledNanos);
    }

    /** Names each figure, so that a probe cannot swap two of the eight by position. */
    public static final class Builder {

        private long totalNanos;
        private long userNanos;
        private long systemNanos;
        private OptionalLong hostNanos = OptionalLong.empty();
        private int onlineCpus;
        private long periods;
        private long throttledPeriods;
        private long throttledNanos;

        private Builder() {
        }

        public Builder usage(long totalNanos, long userNanos, long systemNanos) {
            this.totalNanos = totalNanos;
            this.userNanos = userNanos;
            this.systemNanos = systemNanos;
            return this;
        }

        public Builder hostNanos(OptionalLong hostNanos) {
            this.hostNanos = Objects.requireNonNull(hostNanos, "hostNanos");
            return this;
        }

        public Builder onlineCpus(int onlineCpus) {
            this.onlineCpus = onlineCpus;
            return this;
        }

        public Builder throttling(long periods, long throttledPeriods, long throttledNanos) {
            this.periods = periods;
            this.throttledPeriods = throttledPeriods;
            this.throttledNanos = throttledNanos;
            return this;
        }

        public CpuReading build() {
            return new CpuReading(totalNanos, userNanos, systemNanos, hostNanos, onlineCpus, periods,
                    throttledPeriods, throttledNanos);
        }
    }
}
