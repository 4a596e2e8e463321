package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.testing.StressContainer;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.junit.jupiter.Container;

/**
 * A budget on a figure this host cannot measure is never a silent pass: 64 MiB of direct-I/O writes under a 1 MiB
 * {@code blockWrite} budget either fail it (where the host counts them) or are reported "not measurable here" with
 * the reason, in the per-test JSON and summary.md, and fail under {@code vitals.strict=true}.
 */
@DisplayName("Budgets on figures this host cannot measure")
class UnmeasurableBudgetIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("64 MiB written under a 1 MiB blockWrite budget: a breach, or 'not measurable here' with the reason")
    void neverASilentPass() throws Exception {
        EngineExecutionResults results = VitalsTestKit.run(reports, Writes64MiB.class);

        String probe = VitalsTestKit.entry(results, "writes64MiB", "vitals.stress.probe").orElseThrow();
        if (probe.equals("host cgroup v2 files")) {
            results.testEvents().assertThatEvents().haveExactly(1, event(test("writes64MiB"), finishedWithFailure(
                    instanceOf(ResourceBudgetExceededError.class),
                    message(m -> m.contains("block write ") && m.contains("exceeds the budget of 1MiB")))));
            return;
        }
        results.testEvents().assertThatEvents().haveExactly(1, event(test("writes64MiB"), finishedSuccessfully()));
        Path testJson;
        try (var files = Files.walk(reports)) {
            testJson = files.filter(f -> f.endsWith("writes64MiB.json")).findFirst().orElseThrow();
        }
        String json = Files.readString(testJson);
        assertThat(json).contains("\"actual\" : \"not measurable here\"", "\"measurable\" : false",
                "blockWrite cannot be measured here: ", "run on a cgroup v2 host");
        assertThat(Files.readString(reports.resolve("summary.md")))
                .contains("**Not measurable here**", "blockWrite cannot be measured here: ");
    }

    @Test
    @DisplayName("with vitals.strict=true, a budget this host cannot measure fails with the reason")
    void strictFails() {
        EngineExecutionResults results = VitalsTestKit.run(reports, Writes64MiB.class, "vitals.strict", "true");

        results.testEvents().assertThatEvents().haveExactly(1, event(test("writes64MiB"), finishedWithFailure(
                instanceOf(ResourceBudgetExceededError.class), message(m -> m.contains("block write ")))));
    }

    @MeasureResources
    static class Writes64MiB {

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(blockWrite = "1MiB")
        void writes64MiB() throws Exception {
            stress.sh("dd if=/dev/zero of=/tmp/out bs=1M count=64 oflag=direct 2>/dev/null && rm /tmp/out");
        }
    }
}
