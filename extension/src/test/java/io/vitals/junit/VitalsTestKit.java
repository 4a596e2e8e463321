package io.vitals.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** Runs fixture classes through the Jupiter engine with reports in a directory of the test's own. */
final class VitalsTestKit {

    private VitalsTestKit() {
    }

    static EngineExecutionResults run(Path reportDir, Class<?> testClass, String... configuration) {
        Map<String, String> parameters = new HashMap<>();
        parameters.put("vitals.reportDir", reportDir.toString());
        parameters.put("vitals.console", "off");
        for (int i = 0; i + 1 < configuration.length; i += 2) {
            parameters.put(configuration[i], configuration[i + 1]);
        }
        return EngineTestKit.engine("junit-jupiter").configurationParameters(parameters)
                .selectors(selectClass(testClass)).execute();
    }

    /** Asserts that {@code count} tests ran and all succeeded, showing the failures otherwise. */
    static void assertAllSucceeded(EngineExecutionResults results, int count) {
        String failures = results.allEvents().failed().stream()
                .map(e -> e.getTestDescriptor().getDisplayName() + ": " + failureOf(e))
                .collect(java.util.stream.Collectors.joining("\n"));
        if (!failures.isEmpty()) {
            throw new AssertionError("Expected every test to succeed, but:\n" + failures);
        }
        results.testEvents().assertStatistics(stats -> stats.succeeded(count).failed(0));
    }

    /** The failure of a finished test event, for message assertions. */
    static Throwable failureOf(Event event) {
        return event.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                .orElseThrow(() -> new AssertionError("event has no failure: " + event));
    }

    /** A report entry value published by the extension for the test of {@code event}'s descriptor. */
    static Optional<String> entry(EngineExecutionResults results, String testName, String key) {
        return results.allEvents().reportingEntryPublished().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().startsWith(testName))
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow())
                .map(entry -> entry.getKeyValuePairs().get(key)).filter(v -> v != null).findFirst();
    }
}
