package io.vitals.matrix;

import io.vitals.MeasureResources;
import io.vitals.Measured;

import org.junit.jupiter.api.Test;

/**
 * The singleton-container pattern: one container started in a static initializer and shared by several classes
 * (here GolfCheck and HotelCheck), never stopped by a test class; {@code @Measured} tells Vitals to watch it.
 */
@MeasureResources
@FixtureWindows
class GolfCheck {

    @Measured
    static final FixtureContainer box = SingletonContainer.BOX;

    @Test
    void singleton() throws Exception {
        box.touch(8);
    }
}
