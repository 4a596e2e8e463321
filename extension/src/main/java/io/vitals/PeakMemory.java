package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * The highest memory use of a container over a test, with how it was obtained.
 *
 * @param value the peak
 * @param at when in the test it was seen (for a kernel high-water mark, the sample at which it was first read)
 * @param method how it was obtained: a kernel high-water mark is exact; a sampled peak may miss a spike shorter
 *     than {@code samplingInterval}
 * @param samplingInterval the interval of the samples behind a sampled peak
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record PeakMemory(DataSize value, Duration at, Method method, Duration samplingInterval) {

    /** How a peak was obtained. */
    public enum Method {
        /** The kernel's own high-water mark of charged memory (page cache included): exact. */
        KERNEL_HIGH_WATER_MARK,
        /** The highest MEM USAGE (charged memory minus inactive file cache) among the samples. */
        SAMPLED
    }

    /**
     * Checks that every component is given.
     *
     * @param value the peak
     * @param at when in the test it was seen (for a kernel high-water mark, the sample at which it was
     *     first read)
     * @param method how it was obtained: a kernel high-water mark is exact; a sampled peak may miss a
     *     spike shorter than {@code samplingInterval}
     * @param samplingInterval the interval of the samples behind a sampled peak
     */
    public PeakMemory {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(samplingInterval, "samplingInterval");
    }

    /** {@return "kernel high-water mark" or "sampled every 50 ms"} */
    public String describeMethod() {
        return method == Method.KERNEL_HIGH_WATER_MARK ? "kernel high-water mark"
                : "sampled every " + samplingInterval.toMillis() + " ms";
    }
}
