package io.vitals.docs.firsttest;

// tag::imports[]
import static io.vitals.assertions.VitalsAssertions.assertThat; // ResourceUsage: Vitals' assertions
import static org.assertj.core.api.Assertions.assertThat;       // everything else: AssertJ's

import io.vitals.Limits;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
// end::imports[]

/**
 * The test of docs/first-test.md and of the plain-container section of docs/getting-started.md: a stress-ng
 * service that holds 100 MiB. It only judges memory, which does not depend on how busy the host's CPUs are.
 */
// tag::class[]
@MeasureResources
class StressServiceIT {

    // any image works; vitals/stress:latest has stress-ng to make a known load
    @Container
    static GenericContainer<?> service = Limits.none().memory("512MiB").cpus(1.0)
            .applyTo(new GenericContainer<>("vitals/stress:latest").withCommand("sleep", "infinity"));

    @Test
    @ResourceBudget(peakMemory = "256MiB")
    void holdsAHundredMebibytes(ResourceMonitor monitor) throws Exception {
        service.execInContainer("stress-ng", "--vm", "1", "--vm-bytes", "100M", "--vm-keep", "--timeout", "3s");

        ResourceUsage usage = monitor.usage("service");   // by field name; usage() while only one is watched
        assertThat(usage).hasPeakMemoryAtLeast("90MiB").hasMemoryHeadroomAtLeast("40%"); // Vitals
        assertThat(monitor.usages()).containsOnlyKeys("service");                         // AssertJ
    }
}
// end::class[]
