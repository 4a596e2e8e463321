package io.vitals.internal.junit;

import io.vitals.internal.result.TestResult;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The report entries of tests no container was measured for, shaped as Surefire writes them into TEST-*.xml, so
 * that the reports count what the XML counts (checked against Surefire 3.5.4 with JUnit 5.14.4):
 * <ul>
 *   <li>a test that failed or was aborted before its measurement began (in {@code @BeforeEach}, another
 *       extension's callback), or was disabled: one entry, with the outcome and the reason;</li>
 *   <li>a class whose setup or teardown failed (an invalid budget, a container that did not start, an
 *       {@code @AfterAll} that threw): one entry for the class, with an empty method name, beside those of any
 *       tests that ran, as the XML's {@code <testcase name="">} with its {@code <error>};</li>
 *   <li>a class an execution condition disabled: one skipped entry per test method and {@code @Nested} class
 *       declared in it, as the XML lists each child of a skipped class.</li>
 * </ul>
 * They started and ended at once as far as the reports know: {@code durationSeconds} is 0.
 */
final class UnmeasuredResults {

    private UnmeasuredResults() {
    }

    /** A test (or invocation) that got no measurement. */
    static TestResult ofTest(ExtensionContext context, TestResult.Outcome outcome, Optional<String> reason) {
        return ofTest(TestIdentity.of(context), outcome, reason);
    }

    /** A test (or invocation, or dynamic test) that got no measurement. */
    static TestResult ofTest(TestIdentity test, TestResult.Outcome outcome, Optional<String> reason) {
        return new TestResult(test.uniqueId(), test.className(), test.methodName(), test.displayName(),
                test.parameters(), outcome, reason, Instant.now(), Duration.ZERO, List.of());
    }

    /** The entry of a class whose setup or teardown failed. */
    static TestResult ofClass(ExtensionContext classContext, Throwable failure, Optional<String> explanation) {
        return new TestResult(classContext.getUniqueId(), classContext.getRequiredTestClass().getName(), "",
                classContext.getDisplayName(), Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of(reason(failure) + explanation.map(text -> "\n" + text).orElse("")), Instant.now(),
                Duration.ZERO, List.of());
    }

    /**
     * The entries of a class that was disabled as a whole: its test methods (a parameterized or repeated one counts
     * once, having no invocations) and its {@code @Nested} classes, each skipped for {@code reason}. Found the way
     * Jupiter finds them: {@code @Testable} methods (any of {@code @Test}, {@code @TestFactory},
     * {@code @TestTemplate} and what they annotate) that are neither static, private nor abstract.
     */
    static List<TestResult> ofSkippedClass(ExtensionContext classContext, String reason) {
        Class<?> testClass = classContext.getRequiredTestClass();
        List<TestResult> skipped = new ArrayList<>();
        Instant now = Instant.now();
        for (Method method : ReflectionSupport.findMethods(testClass, UnmeasuredResults::isTestMethod,
                HierarchyTraversalMode.TOP_DOWN)) {
            String segment = AnnotationSupport.isAnnotated(method, TestTemplate.class) ? "test-template"
                    : AnnotationSupport.isAnnotated(method, TestFactory.class) ? "test-factory" : "method";
            String parameterTypes = Arrays.stream(method.getParameterTypes()).map(Class::getName)
                    .collect(Collectors.joining(", "));
            String displayName = AnnotationSupport.findAnnotation(method, DisplayName.class).map(DisplayName::value)
                    .orElse(method.getName() + "(" + Arrays.stream(method.getParameterTypes())
                            .map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")");
            skipped.add(new TestResult(classContext.getUniqueId() + "/[" + segment + ":" + method.getName() + "("
                    + parameterTypes + ")]", testClass.getName(), method.getName(), displayName, Optional.empty(),
                    TestResult.Outcome.SKIPPED, Optional.of(reason), now, Duration.ZERO, List.of()));
        }
        for (Class<?> nested : ReflectionSupport.findNestedClasses(testClass,
                type -> AnnotationSupport.isAnnotated(type, Nested.class))) {
            String displayName = AnnotationSupport.findAnnotation(nested, DisplayName.class).map(DisplayName::value)
                    .orElse(nested.getSimpleName());
            skipped.add(new TestResult(classContext.getUniqueId() + "/[nested-class:" + nested.getSimpleName() + "]",
                    nested.getName(), "", displayName, Optional.empty(), TestResult.Outcome.SKIPPED,
                    Optional.of(reason), now, Duration.ZERO, List.of()));
        }
        return skipped;
    }

    /** The message, or the exception's class where it has none: the reason is never empty. */
    static String reason(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getName() : message;
    }

    private static boolean isTestMethod(Method method) {
        int modifiers = method.getModifiers();
        return AnnotationSupport.isAnnotated(method, Testable.class) && !Modifier.isStatic(modifiers)
                && !Modifier.isPrivate(modifiers) && !Modifier.isAbstract(modifiers);
    }
}
