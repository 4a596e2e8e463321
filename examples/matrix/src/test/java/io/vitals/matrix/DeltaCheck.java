package io.vitals.matrix;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * One of four classes alike on purpose: forks and parallel execution share a suite out by class, so the fixture needs
 * several classes with a container each to spread over four forks.
 */
@MeasureResources
@FixtureWindows
@Testcontainers
class DeltaCheck {

    @Container
    static final FixtureContainer box = new FixtureContainer();

    @Test
    @ResourceBudget(peakMemory = "1GiB")
    void first() throws Exception {
        box.touch(32);
    }

    @Test
    void second() throws Exception {
        box.touch(16);
    }
}
