package io.vitals.internal.junit;

import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Who a test is in the reports. Read from the test's own context for a test method or an invocation of a template;
 * a dynamic test's context has no class or method, so those come from its factory's context.
 *
 * @param uniqueId JUnit's unique id of the test
 * @param className the test class
 * @param methodName the test method, or the factory method of a dynamic test
 * @param displayName the test's display name
 * @param parameters the display name of an invocation or a dynamic test, which tells it from its siblings
 */
record TestIdentity(String uniqueId, String className, String methodName, String displayName,
        Optional<String> parameters) {

    /** A test method, or an invocation of a parameterized or repeated test. */
    static TestIdentity of(ExtensionContext context) {
        return new TestIdentity(context.getUniqueId(), context.getRequiredTestClass().getName(),
                context.getRequiredTestMethod().getName(), context.getDisplayName(),
                isInvocation(context) ? Optional.of(context.getDisplayName()) : Optional.empty());
    }

    /** A parameterized or repeated test's invocation: its parent is the template, not the class. */
    private static boolean isInvocation(ExtensionContext context) {
        return context.getParent().flatMap(ExtensionContext::getTestMethod).isPresent();
    }

    /** A dynamic test, named by its own context and placed by its factory's. */
    static TestIdentity ofDynamic(ExtensionContext dynamic, ExtensionContext factory) {
        return new TestIdentity(dynamic.getUniqueId(), factory.getRequiredTestClass().getName(),
                factory.getRequiredTestMethod().getName(), dynamic.getDisplayName(),
                Optional.of(dynamic.getDisplayName()));
    }
}
