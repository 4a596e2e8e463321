package io.vitals.matrix;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/** A container declared once, in a superclass, as suites share one. */
@Testcontainers
abstract class SharedContainerBase {

    @Container
    static final FixtureContainer box = new FixtureContainer();
}
