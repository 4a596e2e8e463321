package io.vitals.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.ResourceUsage;

import org.apiguardian.api.API;
import org.assertj.core.annotation.CheckReturnValue;

/**
 * Entry point of the Vitals assertions.
 *
 * <pre>{@code
 * import static io.vitals.assertions.VitalsAssertions.assertThat;
 *
 * assertThat(usage).hasPeakMemoryAtMost("1.5GiB")
 *                  .hasCpuTimeAtMost("60s")
 *                  .wasNotOomKilled();
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class VitalsAssertions {

    private VitalsAssertions() {
    }

    /**
     * Starts assertions on what a container used during a test or a phase.
     *
     * @param actual the usage of a container, e.g. from {@link io.vitals.ResourceMonitor#usage()}
     * @return an assertion on it
     */
    @CheckReturnValue
    public static ResourceUsageAssert assertThat(ResourceUsage actual) {
        return new ResourceUsageAssert(actual);
    }
}
