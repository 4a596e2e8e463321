package io.vitals.internal.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything measured and decided for one test: the input of every report writer.
 *
 * @param uniqueId JUnit's unique ID of the test
 * @param className the test class (binary name, nested classes with '$')
 * @param methodName the test method
 * @param displayName JUnit's display name (for parameterized tests, the invocation's name)
 * @param parameters for a parameterized or repeated test, the invocation's display name (e.g. "[2] 128, 4");
 *     empty for plain tests
 * @param outcome how the test ended
 * @param failureMessage the message of the failure, if it failed
 * @param startedAt when it started
 * @param duration how long it ran
 * @param containers one entry per watched container
 */
public record TestResult(
        String uniqueId,
        String className,
        String methodName,
        String displayName,
        Optional<String> parameters,
        Outcome outcome,
        Optional<String> failureMessage,
        Instant startedAt,
        Duration duration,
        List<ContainerResult> containers) {

    public TestResult {
        containers = List.copyOf(containers);
    }

    /** How a test ended. */
    public enum Outcome { PASSED, FAILED, ABORTED }

    /** True when any budget of any container was breached. */
    public boolean hasBreaches() {
        return containers.stream().anyMatch(c -> c.budgets().stream().anyMatch(b -> !b.passed()));
    }
}
