package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Everything measured and decided for one test: the input of every report writer.
 *
 * <p>Every test JUnit reports is here, also those that never got a measurement: a test that failed or was aborted
 * in {@code @BeforeEach}, a disabled test, and one entry for a test class whose setup or teardown failed
 * ({@link #isClassEntry()}). Those have no containers, and their reason is in {@code failureMessage}; they count in
 * the reports as they count in Surefire's XML, but measured nothing, so no baseline, history or suggestion takes
 * them.
 *
 * @param uniqueId JUnit's unique ID of the test
 * @param className the test class (binary name, nested classes with '$')
 * @param methodName the test method; empty for an entry that stands for the class itself, as in Surefire's XML
 * @param displayName JUnit's display name (for parameterized tests, the invocation's name)
 * @param parameters for a parameterized or repeated test, the invocation's display name (e.g. "[2] 128, 4");
 *     empty for plain tests
 * @param outcome how the test ended
 * @param failureMessage the message of the failure, if it failed; for an aborted or skipped test, why
 * @param startedAt when it started
 * @param duration how long it ran
 * @param containers one entry per watched container; none when the test was not measured
 */
@API(status = INTERNAL, since = "0.1")
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

    /** How a test ended. SKIPPED: disabled, never run (JUnit's "skipped"; ABORTED is an assumption that failed). */
    public enum Outcome { PASSED, FAILED, ABORTED, SKIPPED }

    /**
     * Whether this entry stands for a test class rather than a test: the class failed in its setup or teardown
     * ({@code @BeforeAll}, an extension's {@code beforeAll}, a container that did not start), which Surefire's XML
     * lists as a test case with an empty name.
     */
    public boolean isClassEntry() {
        return methodName.isEmpty();
    }

    /** Whether any container was measured: a test without figures has nothing to compare or keep. */
    public boolean isMeasured() {
        return !containers.isEmpty();
    }

    /** True when any budget of any container was breached. */
    public boolean hasBreaches() {
        return containers.stream().anyMatch(c -> c.budgets().stream().anyMatch(b -> !b.passed()));
    }
}
