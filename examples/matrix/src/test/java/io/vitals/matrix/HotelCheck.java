package io.vitals.matrix;

import io.vitals.MeasureResources;
import io.vitals.Measured;

import org.junit.jupiter.api.Test;

/** The second class sharing {@link SingletonContainer}. */
@MeasureResources
@FixtureWindows
class HotelCheck {

    @Measured
    static final FixtureContainer box = SingletonContainer.BOX;

    @Test
    void singleton() throws Exception {
        box.touch(8);
    }
}
