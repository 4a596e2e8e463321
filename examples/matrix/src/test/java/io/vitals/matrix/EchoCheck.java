package io.vitals.matrix;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.vitals.MeasureResources;

import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The test shapes besides a plain method: parameterized, repeated, dynamic (a {@code @TestFactory}'s tests, which the
 * XML lists and the factory not) and a {@code @Nested} class.
 */
@MeasureResources
@FixtureWindows
@Testcontainers
class EchoCheck {

    @Container
    static final FixtureContainer box = new FixtureContainer();

    @ParameterizedTest
    @ValueSource(ints = {8, 16})
    void parameterized(int mib) throws Exception {
        box.touch(mib);
    }

    @RepeatedTest(2)
    void repeated() throws Exception {
        box.touch(8);
    }

    @TestFactory
    Stream<DynamicTest> dynamic() {
        return Stream.of(dynamicTest("first", () -> box.touch(8)), dynamicTest("second", () -> box.touch(8)));
    }

    @Nested
    class Inner {

        @Test
        void nested() throws Exception {
            box.touch(8);
        }
    }
}
