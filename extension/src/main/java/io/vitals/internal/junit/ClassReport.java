package io.vitals.internal.junit;

import io.vitals.internal.result.TestResult;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Keeps a test class's part of the reports: which of its tests are in them already (a test's measured result is
 * handed over where the test is intercepted, and the test watcher, called later, must then not add an unmeasured one),
 * and ends it exactly once: from {@code afterAll} when the extension is registered on
 * the class, or when the class's store closes when it was registered on methods only (a method-level
 * {@code @ResourceBudget} under {@code @Testcontainers}), where JUnit calls no class callbacks of ours.
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing us on every JUnit 5.10+ release.
@SuppressWarnings("deprecation")
final class ClassReport implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private final Reports reports;
    private final Class<?> testClass;
    // tests of this class may run in parallel
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private boolean finished;

    ClassReport(Reports reports, Class<?> testClass) {
        this.reports = reports;
        this.testClass = testClass;
    }

    /** Notes that the test's measured result is in the reports. */
    void measured(String uniqueId) {
        reported.add(uniqueId);
    }

    /** Hands over the entry of a test (or the class) that got no measurement, unless the test has one already. */
    void unmeasured(TestResult result) {
        if (reported.add(result.uniqueId())) {
            reports.unmeasured(result);
        }
    }

    synchronized void finish() {
        if (!finished) {
            finished = true;
            reports.classFinished(testClass);
        }
    }

    @Override
    public void close() {
        finish();
    }
}
