package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.junit.jupiter.Container;

/**
 * A container that does not start is explained: Testcontainers' failure says only "Container did not start
 * correctly", so Vitals adds the container's exit code and last log lines. And a class whose {@code @Container}
 * field nothing starts (a budget, but neither {@code @MeasureResources} nor {@code @Testcontainers}) is told which
 * annotation is missing.
 */
@DisplayName("Container start-up failures")
class ContainerStartFailureIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("a command that exits at once: Testcontainers' launch failure gets its exit code and last log lines")
    void exitsWithLogs() {
        String explained = explanation(VitalsTestKit.run(reports, ExitsWithLogs.class), ExitsWithLogs.class);

        assertThat(explained).startsWith("Container field 'dies' (image vitals/stress:latest, id ")
                .contains(" is not running: its command exited with code 3; its last 2 log lines:\n    ")
                // stdout and stderr come back as one stream, in no set order
                .contains("\n    reading /etc/app.conf").contains("\n    fatal: /etc/app.conf missing");
    }

    @Test
    @DisplayName("a command that exits at once silently: the exit code, and that it wrote nothing")
    void exitsSilently() {
        String explained = explanation(VitalsTestKit.run(reports, ExitsSilently.class), ExitsSilently.class);

        assertThat(explained)
                .endsWith(" is not running: its command exited with code 7; it wrote nothing to stdout or stderr");
    }

    @Test
    @DisplayName("a budget on a class with neither @MeasureResources nor @Testcontainers names the missing annotation")
    void noAnnotationStartsTheContainer() {
        EngineExecutionResults results = VitalsTestKit.run(reports, NothingStartsIt.class);

        Throwable failure = VitalsTestKit.failureOf(results.testEvents().failed().stream().findFirst().orElseThrow());
        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessage("Container field "
                + "'stress' of NothingStartsIt holds no running container when test() starts; NothingStartsIt is "
                + "annotated neither @MeasureResources nor @Testcontainers, so nothing starts its @Container fields: "
                + "annotate the class @Testcontainers so that @Container fields are started, or start the container "
                + "yourself");
    }

    @Test
    @DisplayName("a container that dies while starting, 20 times: 20 of 20 fail, and each is in the reports as "
            + "failed with Testcontainers' reason")
    void diesWhileStartingTwentyTimes() throws Exception {
        EngineExecutionResults results = VitalsTestKit.run(reports, DiesWhileStartingEachTime.class);

        results.testEvents().assertStatistics(stats -> stats.started(20).failed(20).succeeded(0));
        JsonNode index = new ObjectMapper().readTree(reports.resolve("vitals.json").toFile());
        assertThat(index.get("testCount").asInt()).isEqualTo(20);
        index.get("tests").forEach(test -> {
            assertThat(test.get("outcome").asText()).isEqualTo("FAILED");
            assertThat(test.path("failureMessage").asText()).contains("Container startup failed");
        });
    }

    /**
     * What Vitals added. Whether Testcontainers itself notices the exit depends on timing: its start-up check
     * passes a container it still saw running right after starting it, and then the first test finds it gone.
     * Either way the failure must carry what the container said.
     */
    private static String explanation(EngineExecutionResults results, Class<?> fixture) {
        List<Throwable> classFailures = results.containerEvents().failed().stream().map(VitalsTestKit::failureOf)
                .toList();
        if (!classFailures.isEmpty()) {
            assertThat(results.testEvents().started().count()).isZero();
            assertThat(classFailures).singleElement().isInstanceOf(ContainerLaunchException.class);
            assertThat(classFailures.get(0).getSuppressed()).hasSize(1);
            return classFailures.get(0).getSuppressed()[0].getMessage();
        }
        Throwable testFailure = VitalsTestKit.failureOf(results.testEvents().failed().stream().findFirst()
                .orElseThrow(() -> new AssertionError("neither the class nor its test failed")));
        assertThat(testFailure).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageStartingWith("Container field 'dies' of " + fixture.getSimpleName()
                        + " holds no running container when test() starts (");
        String message = testFailure.getMessage();
        return message.substring(message.indexOf(" (") + 2, message.length() - 1);
    }

    /** Its one-shot start-up check waits for the command to end, so Testcontainers always sees it fail. */
    @MeasureResources
    static class ExitsWithLogs {

        @Container
        static final StressContainer dies = new StressContainer().withCommand("sh", "-c",
                "echo reading /etc/app.conf; echo fatal: /etc/app.conf missing >&2; exit 3")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy());

        @Test
        void test() {
        }
    }

    @MeasureResources
    static class ExitsSilently {

        @Container
        static final StressContainer dies = new StressContainer().withCommand("sh", "-c", "exit 7");

        @Test
        void test() {
        }
    }

    /** A container of its own for each repetition (an instance field), whose command ends before it is up. */
    @MeasureResources
    static class DiesWhileStartingEachTime {

        @Container
        final StressContainer dies = new StressContainer().withCommand("sh", "-c", "exit 5")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy());

        @RepeatedTest(20)
        void test() {
        }
    }

    static class NothingStartsIt {

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "1GiB")
        void test() {
        }
    }
}
