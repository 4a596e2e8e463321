package io.vitals.matrix;

import io.vitals.MeasureResources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A container declared in a superclass, with one instance per class, and a test that fails once when
 * {@code matrix.flaky} is set (the rerun configuration: Surefire's {@code rerunFailingTestsCount} runs it again).
 */
@MeasureResources
@FixtureWindows
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FoxtrotCheck extends SharedContainerBase {

    @Test
    void inherited() throws Exception {
        box.touch(8);
    }

    @Test
    void flakyOnce() throws Exception {
        box.touch(8);
        FlakyOnce.failTheFirstTime("FoxtrotCheck.flakyOnce");
    }
}
