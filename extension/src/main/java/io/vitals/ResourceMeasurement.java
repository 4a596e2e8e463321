package io.vitals;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.ServiceLoader;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.Store;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * The extension that {@link MeasureResources} and {@link ResourceBudget} register: package-private, beside the
 * annotations (as Testcontainers' {@code TestcontainersExtension} stands beside {@code @Testcontainers}), it hands
 * every callback to the {@link MeasurementCallbacks} found through {@link ServiceLoader}. The implementation is
 * looked up once per run and kept in the root store; the compile-time dependency thereby points from the internal
 * packages to this one, never back.
 *
 * <p>Only the callbacks the implementation overrides are handed on; the other methods of
 * {@link org.junit.jupiter.api.extension.InvocationInterceptor} and
 * {@link org.junit.jupiter.api.extension.TestWatcher} keep their defaults here as there.
 */
final class ResourceMeasurement implements MeasurementCallbacks {

    private static final Namespace NAMESPACE = Namespace.create(ResourceMeasurement.class);
    private static final String IMPLEMENTATION_KEY = "implementation";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return implementation(context).evaluateExecutionCondition(context);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        implementation(context).beforeAll(context);
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        implementation(extensionContext).interceptTestMethod(invocation, invocationContext, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
            ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext) throws Throwable {
        implementation(extensionContext).interceptTestTemplateMethod(invocation, invocationContext, extensionContext);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        implementation(extensionContext).interceptDynamicTest(invocation, invocationContext, extensionContext);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        implementation(context).afterAll(context);
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        implementation(context).testSuccessful(context);
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        implementation(context).testAborted(context, cause);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        implementation(context).testFailed(context, cause);
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        implementation(context).testDisabled(context, reason);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return implementation(extensionContext).supportsParameter(parameterContext, extensionContext);
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return implementation(extensionContext).resolveParameter(parameterContext, extensionContext);
    }

    private static MeasurementCallbacks implementation(ExtensionContext context) {
        Store root = context.getRoot().getStore(NAMESPACE);
        return root.getOrComputeIfAbsent(IMPLEMENTATION_KEY, key -> load(), MeasurementCallbacks.class);
    }

    // the first one found: Vitals' jar declares exactly one
    private static MeasurementCallbacks load() {
        return ServiceLoader.load(MeasurementCallbacks.class, ResourceMeasurement.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new ExtensionConfigurationException("No implementation of "
                        + MeasurementCallbacks.class.getName() + " on the class path: Vitals' jar declares one in "
                        + "META-INF/services/" + MeasurementCallbacks.class.getName() + "; is the jar incomplete?"));
    }
}
