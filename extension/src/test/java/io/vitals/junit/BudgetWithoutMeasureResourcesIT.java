package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceMonitor;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A budget is judged wherever it is written: a class with {@code @Testcontainers} and no {@code @MeasureResources}
 * gets its {@code @ResourceBudget}s checked (and a {@code ResourceMonitor} injected) all the same, because the
 * annotation registers the extension itself. Before, such a budget was silently ignored and the test passed.
 */
@DisplayName("@ResourceBudget without @MeasureResources")
class BudgetWithoutMeasureResourcesIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("a method budget under @Testcontainers alone is judged, and a ResourceMonitor is injected")
    void methodBudgetIsJudged() throws Exception {
        EngineExecutionResults results = VitalsTestKit.run(reports, MethodBudgets.class);

        results.testEvents().assertThatEvents()
                .haveExactly(1, event(test("holds200MiBOver20MiBBudget"), finishedWithFailure(
                        instanceOf(ResourceBudgetExceededError.class),
                        message(m -> m.startsWith("Resource budget exceeded by container 'stress'")
                                && m.contains("exceeds the budget of 20MiB")))))
                .haveExactly(1, event(test("monitorIsInjected"), finishedSuccessfully()))
                .haveExactly(1, event(test("noBudget"), finishedSuccessfully()));
        // the class's report was ended although JUnit called no class callback of the extension
        try (Stream<Path> files = Files.walk(reports)) {
            assertThat(files.map(p -> reports.relativize(p).toString()))
                    .anyMatch(name -> name.endsWith("MethodBudgets/holds200MiBOver20MiBBudget.json"))
                    .contains("vitals.json", "summary.md");
        }
    }

    @Test
    @DisplayName("a class budget under @Testcontainers alone is judged for every test")
    void classBudgetIsJudged() {
        EngineExecutionResults results = VitalsTestKit.run(reports, ClassBudget.class);

        results.testEvents().assertThatEvents().haveExactly(1, event(test("holds200MiB"), finishedWithFailure(
                instanceOf(ResourceBudgetExceededError.class), message(m -> m.contains("exceeds the budget of 20MiB")))));
        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
    }

    private static void hold200MiB(StressContainer stress) throws Exception {
        stress.sh("dd if=/dev/zero bs=200M count=1 iflag=fullblock 2>/dev/null | sleep 0.5");
    }

    @Testcontainers
    static class MethodBudgets {

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "20MiB")
        void holds200MiBOver20MiBBudget() throws Exception {
            hold200MiB(stress);
        }

        @Test
        @ResourceBudget(peakMemory = "2GiB")
        void monitorIsInjected(ResourceMonitor monitor) throws Exception {
            hold200MiB(stress);
            assertThat(monitor.usage().peakMemory().toMiB()).isGreaterThan(150);
        }

        @Test
        void noBudget() {
        }
    }

    @Testcontainers
    @ResourceBudget(peakMemory = "20MiB")
    static class ClassBudget {

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        void holds200MiB() throws Exception {
            hold200MiB(stress);
        }
    }
}
