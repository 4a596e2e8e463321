package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** {@link RunProgress} on real executions of the Jupiter engine, through the launcher as a build tool runs it. */
class RunProgressTests {

    private static final String SIGNAL = "signal";

    /**
     * Runs {@code classes} and returns what ended, in order: "test …" and "class …" as each finished or was skipped,
     * and {@link #SIGNAL} where {@link RunProgress} said the last test had ended.
     */
    private static List<String> run(Class<?>... classes) {
        return run(Map.of(), classes);
    }

    private static List<String> run(Map<String, String> configuration, Class<?>... classes) {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        TestExecutionListener recorder = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                record(identifier);
            }

            @Override
            public void executionSkipped(TestIdentifier identifier, String reason) {
                record(identifier);
            }

            private void record(TestIdentifier identifier) {
                if (identifier.isTest()) {
                    events.add("test " + identifier.getDisplayName());
                } else if (identifier.getSource().filter(s -> s instanceof org.junit.platform.engine.support.descriptor
                        .ClassSource).isPresent()) {
                    events.add("class " + identifier.getDisplayName());
                }
            }
        };
        RunProgress progress = new RunProgress();
        // asks for the signal once the execution is under way, as the extension does when its reports open
        TestExecutionListener asking = new TestExecutionListener() {
            @Override
            public void testPlanExecutionStarted(TestPlan testPlan) {
                progress.whenLastTestEnded(() -> events.add(SIGNAL));
            }
        };
        // The launcher tells listeners of a start in order and of an end in reverse: the progress starts before the
        // listener that asks it, and the recorder hears of a test's end before the progress does.
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(Stream.of(classes).map(c -> selectClass(c)).toList()).configurationParameters(configuration)
                .build(), progress, asking, recorder);
        return new ArrayList<>(events);
    }

    @Test
    @DisplayName("every kind of test in one class: one signal, after the last test and before the class ends")
    void everyKindOfTest() {
        List<String> events = run(AllKindsTestCases.class);

        assertThat(events).filteredOn(SIGNAL::equals).hasSize(1);
        int signal = events.indexOf(SIGNAL);
        // 1 plain, 3 repetitions, 2 dynamic, 2 parameterized, 1 nested
        assertThat(events.subList(0, signal)).filteredOn(e -> e.startsWith("test ")).hasSize(9);
        assertThat(events.subList(signal + 1, events.size())).noneMatch(e -> e.startsWith("test "))
                .contains("class RunProgressTests$AllKindsTestCases");
    }

    @Test
    @DisplayName("two classes: no signal when the first one's tests end, one after the second one's")
    void twoClasses() {
        List<String> events = run(AllKindsTestCases.class, OneTestCases.class);

        assertThat(events).filteredOn(SIGNAL::equals).hasSize(1);
        int signal = events.indexOf(SIGNAL);
        assertThat(events.subList(0, signal)).filteredOn(e -> e.startsWith("test ")).hasSize(10);
        assertThat(events.subList(signal + 1, events.size())).noneMatch(e -> e.startsWith("test "));
    }

    @Test
    @DisplayName("a disabled class: its tests get no events, and the signal still comes once, after every test")
    void disabledClass() {
        List<String> events = run(OneTestCases.class, DisabledTestCases.class);

        assertThat(events).filteredOn(SIGNAL::equals).hasSize(1);
        assertThat(events.subList(events.indexOf(SIGNAL) + 1, events.size())).noneMatch(e -> e.startsWith("test "));
        assertThat(events).contains("test one()").doesNotContain("test never()");
    }

    @Test
    @DisplayName("classes and methods run concurrently: one signal, after every test of every class")
    void concurrent() {
        List<String> events = run(Map.of("junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.mode.classes.default", "concurrent"),
                AllKindsTestCases.class, OneTestCases.class, DisabledTestCases.class);

        assertThat(events).filteredOn(SIGNAL::equals).hasSize(1);
        int signal = events.indexOf(SIGNAL);
        assertThat(events.subList(0, signal)).filteredOn(e -> e.startsWith("test ")).hasSize(10);
        assertThat(events.subList(signal + 1, events.size())).noneMatch(e -> e.startsWith("test "));
    }

    static class AllKindsTestCases {

        @Test
        void plain() {
        }

        @RepeatedTest(3)
        void repeated() {
        }

        @TestFactory
        Stream<DynamicTest> factory() {
            return Stream.of("a", "b").map(name -> DynamicTest.dynamicTest(name, () -> { }));
        }

        @ParameterizedTest
        @ValueSource(ints = {1, 2})
        void parameterized(int i) {
        }

        @Nested
        class Inner {
            @Test
            void nested() {
            }
        }
    }

    static class OneTestCases {
        @Test
        void one() {
        }
    }

    @Disabled("a class skipped as a whole")
    static class DisabledTestCases {
        @Test
        void never() {
        }
    }
}
