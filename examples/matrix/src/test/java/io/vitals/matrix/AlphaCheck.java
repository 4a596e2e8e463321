package io.vitals.matrix;

import org.testcontainers.junit.jupiter.Container;

/** One of four classes alike on purpose: see {@link FourClassesFixture}. */
@FixtureWindows // not @Inherited, so on each class: the matrix's choice of exclusive or shared windows
class AlphaCheck extends FourClassesFixture {

    @Container
    static final FixtureContainer box = new FixtureContainer();

    AlphaCheck() {
        super(box);
    }
}
