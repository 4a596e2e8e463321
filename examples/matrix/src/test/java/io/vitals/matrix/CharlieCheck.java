package io.vitals.matrix;

import org.testcontainers.junit.jupiter.Container;

/** One of four classes alike on purpose: see {@link FourClassesFixture}. */
class CharlieCheck extends FourClassesFixture {

    @Container
    static final FixtureContainer box = new FixtureContainer();

    CharlieCheck() {
        super(box);
    }
}
