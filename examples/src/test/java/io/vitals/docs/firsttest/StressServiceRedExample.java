package io.vitals.docs.firsttest;

import io.vitals.Limits;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;

/**
 * The red step of docs/first-test.md: the same test with a budget below what it holds. Named without the IT
 * suffix, since it fails on purpose; run it with -Dit.test=StressServiceRedExample.
 */
@MeasureResources
class StressServiceRedExample {

    @Container
    static GenericContainer<?> service = Limits.none().memory("512MiB").cpus(1.0)
            .applyTo(new GenericContainer<>("vitals/stress:latest").withCommand("sleep", "infinity"));

    // tag::red[]
    @Test
    @ResourceBudget(peakMemory = "64MiB")
    void holdsAHundredMebibytes() throws Exception {
        service.execInContainer("stress-ng", "--vm", "1", "--vm-bytes", "100M", "--vm-keep", "--timeout", "3s");
    }
    // end::red[]
}
