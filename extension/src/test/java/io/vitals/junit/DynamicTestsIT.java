package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.testcontainers.junit.jupiter.Container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A {@code @TestFactory}'s dynamic tests are measured, judged and reported one by one, as Surefire's XML lists them;
 * the factory method, which only builds them, is not in the reports.
 */
@DisplayName("Dynamic tests")
class DynamicTestsIT {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path reports;

    @Test
    @DisplayName("each dynamic test has its own entry and figures, in the order of their workloads; the factory none")
    void eachDynamicTestIsMeasured() throws IOException {
        EngineExecutionResults results = VitalsTestKit.run(reports, BurnTestCases.class);

        VitalsTestKit.assertAllSucceeded(results, 3);
        Map<String, JsonNode> tests = byDisplayName(reports);
        assertThat(tests).containsOnlyKeys("light", "medium", "heavy");
        Map<String, Double> cpuSeconds = new HashMap<>();
        for (JsonNode test : tests.values()) {
            String name = test.get("displayName").asText();
            assertThat(test.get("className").asText()).isEqualTo(BurnTestCases.class.getName());
            assertThat(test.get("methodName").asText()).isEqualTo("burns");
            assertThat(test.get("parameters").asText()).isEqualTo(name);
            assertThat(test.get("uniqueId").asText()).contains("[test-factory:burns()]/[dynamic-test:");
            assertThat(test.get("outcome").asText()).isEqualTo("PASSED");
            assertThat(test.get("containers")).as(name).hasSize(1);
            cpuSeconds.put(name, test.at("/containers/0/cpuSeconds").asDouble());
            // the figures went to JUnit too, on the dynamic test
            assertThat(VitalsTestKit.entry(results, name, "vitals.stress.cpuTime")).as(name).isPresent();
        }
        // fixed amounts of work (stress-ng --cpu-ops 300 / 1400 / 4300, about 0.1 / 0.5 / 1.5 s of CPU when idle):
        // whatever contention does to each, the figures keep their order, so each window held its own test only
        assertThat(cpuSeconds.get("light")).isLessThan(cpuSeconds.get("medium"));
        assertThat(cpuSeconds.get("medium")).isLessThan(cpuSeconds.get("heavy"));
        assertThat(cpuSeconds.get("heavy")).isGreaterThan(0.8);
    }

    @Test
    @DisplayName("a budget on the factory method applies to each dynamic test: the one that breaks it fails")
    void factoryBudgetAppliesToEachDynamicTest() throws IOException {
        EngineExecutionResults results = VitalsTestKit.run(reports, BudgetTestCases.class);

        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(1));
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).extracting(e -> e.getTestDescriptor().getDisplayName()).containsExactly("allocates 300 MiB");
        assertThat(VitalsTestKit.failureOf(failed.get(0))).isInstanceOf(ResourceBudgetExceededError.class)
                .hasMessageStartingWith("Resource budget exceeded by container 'stress' (vitals/stress:latest):")
                .hasMessageContaining("peak memory ").hasMessageContaining("exceeds the budget of 150MiB");

        Map<String, JsonNode> tests = byDisplayName(reports);
        assertThat(tests).containsOnlyKeys("idles", "allocates 300 MiB");
        assertThat(tests.get("idles").get("outcome").asText()).isEqualTo("PASSED");
        assertThat(tests.get("idles").get("breaches")).isEmpty();
        JsonNode breaking = tests.get("allocates 300 MiB");
        assertThat(breaking.get("outcome").asText()).isEqualTo("FAILED");
        assertThat(breaking.get("breaches")).hasSize(1);
        assertThat(breaking.get("breaches").get(0).asText()).startsWith("stress: ").contains("150MiB");
        assertThat(breaking.at("/containers/0/peakMemoryBytes").asLong()).isGreaterThan(290L << 20);
        assertThat(tests.get("idles").at("/containers/0/peakMemoryBytes").asLong()).isLessThan(100L << 20);
    }

    @Test
    @DisplayName("an instance container (started for the factory's instance) is measured in each dynamic test")
    void instanceContainerIsMeasuredPerDynamicTest() throws IOException {
        EngineExecutionResults results = VitalsTestKit.run(reports, InstanceContainerTestCases.class);

        VitalsTestKit.assertAllSucceeded(results, 2);
        Map<String, JsonNode> tests = byDisplayName(reports);
        assertThat(tests).containsOnlyKeys("idles", "burns");
        assertThat(tests.get("idles").at("/containers/0/name").asText()).isEqualTo("own");
        assertThat(tests.get("idles").at("/containers/0/cpuSeconds").asDouble())
                .isLessThan(tests.get("burns").at("/containers/0/cpuSeconds").asDouble());
    }

    /** vitals.json's entries by display name; fails on two with the same name. */
    private static Map<String, JsonNode> byDisplayName(Path reports) throws IOException {
        JsonNode index = MAPPER.readTree(reports.resolve("vitals.json").toFile());
        Map<String, JsonNode> tests = new HashMap<>();
        for (JsonNode test : index.get("tests")) {
            assertThat(tests.put(test.get("displayName").asText(), test)).as("a second entry named %s",
                    test.get("displayName").asText()).isNull();
        }
        assertThat(index.get("testCount").asInt()).isEqualTo(tests.size());
        return tests;
    }

    @MeasureResources
    static class BurnTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

        @TestFactory
        Stream<DynamicTest> burns() {
            return Stream.of(dynamicTest("light", () -> burn(300)), dynamicTest("medium", () -> burn(1400)),
                    dynamicTest("heavy", () -> burn(4300)));
        }

        private static void burn(int ops) throws Exception {
            // a fixed amount of work (about 2,900 int64 ops per CPU second here), not a fixed time
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops " + ops + " --quiet");
        }
    }

    @MeasureResources
    static class InstanceContainerTestCases {

        @Container
        final StressContainer own = new StressContainer();

        @TestFactory
        Stream<DynamicTest> work() {
            return Stream.of(dynamicTest("idles", () -> own.sh("sleep 0.3")),
                    dynamicTest("burns", () -> own.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops 2900 --quiet")));
        }
    }

    @MeasureResources
    static class BudgetTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

        @TestFactory
        @ResourceBudget(peakMemory = "150MiB")
        Stream<DynamicTest> allocations() {
            return Stream.of(dynamicTest("idles", () -> stress.sh("sleep 0.3")),
                    dynamicTest("allocates 300 MiB", () -> stress.sh("dd if=/dev/zero bs=300M count=1"
                            + " iflag=fullblock 2>/dev/null | { head -c 1 >/dev/null; sleep 0.5; }")));
        }
    }
}
