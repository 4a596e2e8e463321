package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.junit.jupiter.Container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every test JUnit reports is in the reports, with its outcome and why, also those that failed before any container
 * was measured: a class with an invalid budget, a class whose container does not start, a disabled test, a test
 * aborted or failed in {@code @BeforeEach}. The counts are those of Surefire's XML for the same run: a test case
 * per test that ran or was skipped, and one (with an empty name) per class whose setup failed.
 */
@DisplayName("Every test reported")
class EveryTestReportedIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("vitals.json, summary.md and index.html list every test with its outcome and reason")
    void everyTestIsInEveryReport() throws IOException {
        EngineExecutionResults results = runAll();

        // ground truth: what JUnit reported, counted as Surefire counts test cases
        long ran = results.testEvents().finished().count();
        long skipped = results.testEvents().skipped().count();
        long failedClasses = results.containerEvents().failed().stream()
                .filter(e -> e.getTestDescriptor().getSource().filter(ClassSource.class::isInstance).isPresent())
                .count();
        assertThat(ran).isEqualTo(3); // passes, abortsInBeforeEach, failsInBeforeEach
        assertThat(skipped).isEqualTo(1); // disabled
        assertThat(failedClasses).isEqualTo(2); // InvalidBudget, ContainerDoesNotStart
        long expected = ran + skipped + failedClasses;

        JsonNode index = new ObjectMapper().readTree(reports.resolve("vitals.json").toFile());
        assertThat(index.get("testCount").asLong()).isEqualTo(expected);
        Map<String, JsonNode> byName = new HashMap<>();
        StreamSupport.stream(index.get("tests").spliterator(), false).forEach(test -> byName.put(
                simple(test.get("className").asText()) + "#" + test.get("methodName").asText(), test));
        assertThat(byName).hasSize((int) expected);

        assertEntry(byName.get("Mixed#passes"), "PASSED", null);
        assertThat(byName.get("Mixed#passes").get("containers")).hasSize(1);
        assertEntry(byName.get("Mixed#disabled"), "SKIPPED", "not today");
        assertEntry(byName.get("Mixed#abortsInBeforeEach"), "ABORTED", "Assumption failed: no GPU here");
        assertEntry(byName.get("Mixed#failsInBeforeEach"), "FAILED", "setup broke");
        assertEntry(byName.get("InvalidBudget#"), "FAILED", "@ResourceBudget(peakMemory = \"lots\") on method "
                + "InvalidBudget.test(): Invalid data size 'lots': expected " + io.vitals.DataSize.ACCEPTED_FORMS);
        JsonNode notStarted = byName.get("ContainerDoesNotStart#");
        assertThat(notStarted.get("outcome").asText()).isEqualTo("FAILED");
        assertThat(notStarted.get("failureMessage").asText()).contains("Container startup failed");
        for (String unmeasured : new String[] {"Mixed#disabled", "Mixed#abortsInBeforeEach", "Mixed#failsInBeforeEach",
                "InvalidBudget#", "ContainerDoesNotStart#"}) {
            JsonNode entry = byName.get(unmeasured);
            assertThat(entry.get("containers")).as(unmeasured).isEmpty();
            // its own JSON is written too, with the same outcome and reason
            JsonNode own = new ObjectMapper().readTree(reports.resolve(entry.get("json").asText()).toFile());
            assertThat(own.get("test").get("outcome").asText()).isEqualTo(entry.get("outcome").asText());
            assertThat(own.get("test").get("failureMessage").asText())
                    .isEqualTo(entry.get("failureMessage").asText());
        }

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary).contains(expected + " tests, 4 failed or aborted, 1 skipped.")
                .contains("## Needs attention")
                .doesNotContain("No budget breaches")
                .contains("- :fast_forward: **Skipped** `" + key(Mixed.class, "disabled") + "`: not today")
                .contains("- :x: **Aborted before any container was measured** `"
                        + key(Mixed.class, "abortsInBeforeEach") + "`: Assumption failed: no GPU here")
                .contains("- :x: **Failed before any container was measured** `" + key(Mixed.class,
                        "failsInBeforeEach") + "`: setup broke")
                .contains("- :x: **Failed before any container was measured** `" + key(InvalidBudget.class,
                        "(class)") + "`: @ResourceBudget(peakMemory = \"lots\")")
                .contains("- :x: **Failed before any container was measured** `" + key(ContainerDoesNotStart.class,
                        "(class)") + "`: ");
        assertThat(summary.lines().filter(line -> line.startsWith("| ") && !line.startsWith("| Test ")))
                .as("one table row per test").hasSize((int) expected);

        String html = Files.readString(reports.resolve("index.html"));
        assertThat(html).contains("Skipped: <a href=")
                .contains(key(Mixed.class, "disabled") + "</a>: not today")
                .contains(key(Mixed.class, "abortsInBeforeEach") + "</a>: Assumption failed: no GPU here")
                .contains(key(Mixed.class, "failsInBeforeEach") + "</a>: setup broke")
                .contains(key(InvalidBudget.class, "(class)") + "</a>: @ResourceBudget(peakMemory = &quot;lots&quot;)")
                .contains(key(ContainerDoesNotStart.class, "(class)") + "</a>: ");
        assertThat(html.split("<details id=\"t", -1)).as("one section per test").hasSize((int) expected + 1);
    }

    private static void assertEntry(JsonNode entry, String outcome, String reason) {
        assertThat(entry).isNotNull();
        assertThat(entry.get("outcome").asText()).isEqualTo(outcome);
        if (reason == null) {
            assertThat(entry.get("failureMessage").isNull()).isTrue();
        } else {
            assertThat(entry.get("failureMessage").asText()).isEqualTo(reason);
        }
    }

    private static String key(Class<?> testClass, String label) {
        return testClass.getName() + "#" + label;
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('$') + 1);
    }

    private EngineExecutionResults runAll() {
        Map<String, String> parameters = new HashMap<>();
        parameters.put("vitals.reportDir", reports.toString());
        parameters.put("vitals.console", "off");
        return EngineTestKit.engine("junit-jupiter").configurationParameters(parameters)
                .selectors(selectClass(Mixed.class), selectClass(InvalidBudget.class),
                        selectClass(ContainerDoesNotStart.class))
                .execute();
    }

    @MeasureResources
    static class Mixed {
        @Container
        static final StressContainer stress = new StressContainer();

        @BeforeEach
        void setUp(TestInfo info) {
            if (info.getTestMethod().orElseThrow().getName().equals("abortsInBeforeEach")) {
                assumeTrue(false, "no GPU here");
            }
            if (info.getTestMethod().orElseThrow().getName().equals("failsInBeforeEach")) {
                throw new IllegalStateException("setup broke");
            }
        }

        @Test
        void passes() {
        }

        @Test
        @Disabled("not today")
        void disabled() {
        }

        @Test
        void abortsInBeforeEach() {
        }

        @Test
        void failsInBeforeEach() {
        }
    }

    @MeasureResources
    static class InvalidBudget {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "lots")
        void test() {
        }
    }

    @MeasureResources
    static class ContainerDoesNotStart {
        // exits at once with a failure: Testcontainers' start fails in the class's beforeAll. Its one-shot check
        // waits for the command to end; the default check can see the container running before it exits, and the
        // test then fails instead of the class (one test more in JUnit's count, and in ours)
        @Container
        static final StressContainer stress = new StressContainer().withCommand("sh", "-c", "exit 3")
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy());

        @Test
        void test() {
        }
    }
}
