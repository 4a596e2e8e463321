package io.vitals.internal.junit;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Ends a test class's part of the reports exactly once: from {@code afterAll} when the extension is registered on
 * the class, or when the class's store closes when it was registered on methods only (a method-level
 * {@code @ResourceBudget} under {@code @Testcontainers}), where JUnit calls no class callbacks of ours.
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing us on every JUnit 5.10+ release.
@SuppressWarnings("deprecation")
final class ClassReport implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private final Reports reports;
    private final Class<?> testClass;
    private boolean finished;

    ClassReport(Reports reports, Class<?> testClass) {
        this.reports = reports;
        this.testClass = testClass;
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
