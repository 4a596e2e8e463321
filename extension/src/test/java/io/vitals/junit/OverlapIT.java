package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.SharedLoad;
import io.vitals.testing.StressContainer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.testcontainers.junit.jupiter.Container;

/**
 * JUnit's parallel execution with methods run concurrently and {@link SharedLoad}: two tests on one class-scoped
 * container are measured at the same time, so each one's figures include the other's usage. Both are marked, naming
 * each other, in every report, and neither goes into the history or the baseline; two tests each with a container of
 * its own, run the same way, are not marked. ParallelLocksIT shows the default, one at a time.
 */
@DisplayName("Overlapping tests on a shared container")
class OverlapIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @DisplayName("are marked with each other's names everywhere and kept out of the history and the baseline")
    void overlappingTestsAreMarked() throws Exception {
        Path reports = dir.resolve("reports");
        Path history = dir.resolve("history.jsonl");
        Path baseline = dir.resolve("baseline.json");
        Map<String, String> parameters = new HashMap<>();
        parameters.put("vitals.reportDir", reports.toString());
        parameters.put("vitals.console", "table");
        parameters.put("vitals.history", history.toString());
        parameters.put("vitals.history.update", "true");
        parameters.put("vitals.baseline", baseline.toString());
        parameters.put("vitals.baseline.update", "true");
        parameters.put("junit.jupiter.execution.parallel.enabled", "true");
        parameters.put("junit.jupiter.execution.parallel.mode.default", "concurrent");
        parameters.put("junit.jupiter.execution.parallel.mode.classes.default", "same_thread");
        parameters.put("junit.jupiter.execution.parallel.config.strategy", "fixed");
        parameters.put("junit.jupiter.execution.parallel.config.fixed.parallelism", "4");

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = System.out;
        EngineExecutionResults results;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            results = EngineTestKit.engine("junit-jupiter").configurationParameters(parameters)
                    .selectors(selectClass(SharedContainerTestCases.class), selectClass(OwnContainerTestCases.class))
                    .execute();
        } finally {
            System.setOut(out);
        }
        String printed = console.toString(StandardCharsets.UTF_8);

        // the shared class's budget is breached (its figures hold both tests'): the message says why
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).extracting(e -> e.getTestDescriptor().getDisplayName())
                .containsExactlyInAnyOrder("first()", "second()");
        for (Event event : failed) {
            String other = event.getTestDescriptor().getDisplayName().equals("first()") ? "second()" : "first()";
            assertThat(VitalsTestKit.failureOf(event)).isInstanceOf(ResourceBudgetExceededError.class)
                    .hasMessageContaining("(this window overlapped with " + other + " ("
                            + SharedContainerTestCases.class.getName() + ") on container 'stress': its usage is "
                            + "included; run them one at a time or give each its own container for exact figures)");
        }
        results.testEvents().assertStatistics(stats -> stats.succeeded(2).failed(2));

        JsonNode index = MAPPER.readTree(reports.resolve("vitals.json").toFile());
        for (JsonNode test : index.get("tests")) {
            String method = test.get("methodName").asText();
            JsonNode own = MAPPER.readTree(reports.resolve(test.get("json").asText()).toFile());
            JsonNode overlapped = own.at("/containers/0/overlappedWith");
            if (test.get("className").asText().equals(SharedContainerTestCases.class.getName())) {
                String other = method.equals("first") ? "second()" : "first()";
                assertThat(overlapped).as(method).hasSize(1);
                assertThat(overlapped.at("/0/displayName").asText()).isEqualTo(other);
                assertThat(overlapped.at("/0/className").asText()).isEqualTo(SharedContainerTestCases.class.getName());
                assertThat(test.at("/containers/0/overlappedWith/0/displayName").asText()).isEqualTo(other);
            } else {
                assertThat(overlapped).as(method).isEmpty();
                assertThat(test.at("/containers/0/overlappedWith")).as(method).isEmpty();
            }
        }
        assertThat(index.get("tests")).hasSize(4);

        String html = Files.readString(reports.resolve("index.html"));
        assertThat(html).contains("<b>Overlapped:</b> this window overlapped with second() ("
                + SharedContainerTestCases.class.getName() + ")");
        assertThat(html).contains("<b>Overlapped:</b> this window overlapped with first() ("
                + SharedContainerTestCases.class.getName() + ")");
        assertThat(html.split("<p class=\"overlap\">", -1)).hasSize(3);

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary).contains("| stress † |").contains("† Overlapped: ");
        assertThat(summary.lines().filter(l -> l.contains("**Overlapped**")).toList()).hasSize(2)
                .anyMatch(l -> l.contains("#first` `stress` †: this window overlapped with second() ("))
                .anyMatch(l -> l.contains("#second` `stress` †: this window overlapped with first() ("));
        assertThat(summary.lines().filter(l -> l.startsWith("| ownA ") || l.startsWith("| ownB ")).toList()).hasSize(2)
                .allMatch(l -> l.contains("| stress |"));

        assertThat(printed).contains("stress *")
                .contains("* first: this window overlapped with second() (" + SharedContainerTestCases.class.getName())
                .contains("* second: this window overlapped with first() ("
                        + SharedContainerTestCases.class.getName());
        assertThat(printed.lines().filter(l -> l.startsWith("ownA") || l.startsWith("ownB")).toList()).hasSize(2)
                .noneMatch(l -> l.contains(" * ") || l.contains("stress *"));

        // the history and the baseline hold the tests alone on their containers, and nothing of the overlapped ones
        String historyText = Files.readString(history);
        String baselineText = Files.readString(baseline);
        for (String kept : List.of("ownA", "ownB")) {
            assertThat(historyText).as("history").contains(kept);
            assertThat(baselineText).as("baseline").contains(kept);
        }
        for (String left : List.of(SharedContainerTestCases.class.getSimpleName())) {
            assertThat(historyText).as("history").doesNotContain(left);
            assertThat(baselineText).as("baseline").doesNotContain(left);
        }
    }

    @Test
    @DisplayName("a test that fails before it runs (a second container not running) leaves no window open on the "
            + "shared one")
    void aTestThatNeverRanOverlapsNoOther() throws Exception {
        Path reports = dir.resolve("reports");
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of("vitals.reportDir", reports.toString(), "vitals.console", "off"))
                .selectors(selectClass(StoppedContainerTestCases.class)).execute();

        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(1));
        assertThat(VitalsTestKit.failureOf(results.testEvents().failed().list().get(0)))
                .hasMessageContaining("Container field 'own' of StoppedContainerTestCases holds no running container");
        JsonNode index = MAPPER.readTree(reports.resolve("vitals.json").toFile());
        JsonNode measured = null;
        for (JsonNode test : index.get("tests")) {
            if (test.get("methodName").asText().equals("measured")) {
                measured = MAPPER.readTree(reports.resolve(test.get("json").asText()).toFile());
            }
        }
        assertThat(measured).as("the measured test's entry").isNotNull();
        assertThat(measured.at("/containers/0/name").asText()).isEqualTo("shared");
        assertThat(measured.at("/containers/0/overlappedWith")).as("overlappedWith").isEmpty();
    }

    /**
     * The first test fails as its windows open: the shared container's window opened (its field comes first, JUnit
     * ordering fields by their names' hash codes), then the stopped one's failed. The second test runs alone.
     */
    @MeasureResources
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class StoppedContainerTestCases {

        @Container
        static final StressContainer shared = new StressContainer();

        @Container
        final StressContainer own = new StressContainer();

        @BeforeEach
        void stopOwnContainer(TestInfo info) {
            if (info.getTestMethod().orElseThrow().getName().equals("ownStopped")) {
                own.stop();
            }
        }

        @Test
        @Order(1)
        void ownStopped() {
        }

        @Test
        @Order(2)
        void measured() throws Exception {
            shared.sh("sleep 0.2");
        }
    }

    /**
     * Two tests on one static container, held at a barrier so that both windows are open at once: {@link SharedLoad}
     * lets them run together (by default they would take the container's lock one after the other).
     */
    @MeasureResources
    @SharedLoad
    @Execution(ExecutionMode.CONCURRENT)
    static class SharedContainerTestCases {

        private static final CyclicBarrier BOTH_RUNNING = new CyclicBarrier(2);

        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(cpuTime = "1ms")
        void first() throws Exception {
            BOTH_RUNNING.await(30, TimeUnit.SECONDS);
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 300 --quiet");
        }

        @Test
        @ResourceBudget(cpuTime = "1ms")
        void second() throws Exception {
            BOTH_RUNNING.await(30, TimeUnit.SECONDS);
            stress.sh("sleep 0.3");
        }
    }

    /** Two tests at the same time, each on a container of its own (an instance field): exact, so not marked. */
    @MeasureResources
    @Execution(ExecutionMode.CONCURRENT)
    static class OwnContainerTestCases {

        private static final CyclicBarrier BOTH_RUNNING = new CyclicBarrier(2);

        @Container
        final StressContainer stress = new StressContainer();

        @Test
        void ownA() throws Exception {
            BOTH_RUNNING.await(30, TimeUnit.SECONDS);
            stress.sh("sleep 0.3");
        }

        @Test
        void ownB() throws Exception {
            BOTH_RUNNING.await(30, TimeUnit.SECONDS);
            stress.sh("sleep 0.3");
        }
    }
}
