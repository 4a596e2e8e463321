package io.vitals.matrix;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The tests of four classes alike on purpose ({@link AlphaCheck} … {@link DeltaCheck}): forks and parallel execution
 * share a suite out by class, so the fixture needs several classes with a container each to spread over four forks.
 * Each class declares its own static {@code @Container} (one here would be one container for all four) and hands it
 * to this constructor; the tests and the annotations are inherited, and run and report under each class's own name.
 * {@code @FixtureWindows} is not {@code @Inherited}, but the {@code @SharedLoad} it may carry is, so that JUnit's
 * search for it reaches this class from each subclass.
 */
@MeasureResources
@FixtureWindows
@Testcontainers
abstract class FourClassesFixture {

    private final FixtureContainer box;

    FourClassesFixture(FixtureContainer box) {
        this.box = box;
    }

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
