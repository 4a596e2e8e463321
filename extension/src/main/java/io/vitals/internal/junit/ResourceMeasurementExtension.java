package io.vitals.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.MeasurementCallbacks;
import io.vitals.ResourceMonitor;
import io.vitals.internal.junit.engine.EngineGate;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.result.TestResult;

import java.lang.reflect.Method;
import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link MeasureResources}: the annotation registers a package-private shim in {@code io.vitals}
 * that finds this class through {@link java.util.ServiceLoader} as its {@link MeasurementCallbacks}.
 *
 * <p>Approach: budgets and settings are checked in {@code beforeAll}, before Testcontainers (registered after us)
 * starts anything. Each test is measured where JUnit invokes it, as JUnit's own {@code TimeoutExtension} times it:
 * around the invocation of a test method, of a test template's invocation (a parameterized or repeated test) and of
 * a dynamic test, {@link MeasuredInvocation} opens the windows, runs the test, judges the verdict, writes the
 * reports and throws what the test fails with. What must end with the test or its class (watches, windows) lives in
 * the ExtensionContext stores, which close it.
 *
 * <p>A {@code @TestFactory} method only builds its dynamic tests: it gets no window and no entry of its own (Surefire's
 * XML has none for it either). Each dynamic test is measured, judged and reported on its own, with the settings,
 * budgets and containers of its factory's method and class.
 *
 * <p>Every test JUnit reports is in the reports, also one that never got a measurement: the test watcher hands over
 * a test that failed or was aborted before it was invoked, or was disabled; {@code afterAll} one entry for a class
 * whose setup or teardown failed (an invalid budget, a container that did not start); the execution condition the
 * tests of a class it disables. See {@link UnmeasuredResults} for how they match Surefire's XML.
 */
@API(status = INTERNAL, since = "0.1")
public final class ResourceMeasurementExtension implements MeasurementCallbacks {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        // a test method, or a dynamic test (whose context names neither class nor method)
        if (context.getTestMethod().isPresent() || context.getTestClass().isEmpty()) {
            return ConditionEvaluationResult.enabled("decided for the class");
        }
        EngineGate gate = new EngineGate(UserLog.named(UserLog.ENGINE).infoLines());
        ConditionEvaluationResult result = gate.condition(context.getDisplayName(), Scopes.runtime(context).docker(),
                () -> requiresDocker(context));
        if (result.isDisabled()) {
            // no callback of ours runs for a disabled class: its tests go into the reports here, as skipped
            ClassReport report = Scopes.classReport(context);
            UnmeasuredResults.ofSkippedClass(context, result.getReason().orElse("Docker is not available"))
                    .forEach(report::unmeasured);
            report.finish();
        }
        return result;
    }

    /** {@code vitals.requireDocker}; true when the settings are bad, which {@code beforeAll} then reports. */
    private static boolean requiresDocker(ExtensionContext context) {
        try {
            return Scopes.settings(context).requireDocker();
        } catch (ExtensionConfigurationException e) {
            return true;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Scopes.settings(context);
        EngineGate.failIfUnusable(Scopes.runtime(context).docker());
        Class<?> testClass = context.getRequiredTestClass();
        Scopes.checkBudgets(context);
        Scopes.classReport(context);
        StartupWitness.install(WatchedField.of(testClass)); // before Testcontainers (registered after us) starts them
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        new MeasuredInvocation(extensionContext, extensionContext, TestIdentity.of(extensionContext))
                .proceed(invocation);
    }

    /** An invocation of a parameterized or repeated test, measured as a test method is. */
    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
            ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
            throws Throwable {
        new MeasuredInvocation(extensionContext, extensionContext, TestIdentity.of(extensionContext))
                .proceed(invocation);
    }

    /**
     * One dynamic test of a {@code @TestFactory}. Its context has no class, method or instance; they are its
     * factory's. No test watcher is called for a dynamic test: one that could not be measured is handed to the
     * reports by {@link MeasuredInvocation}.
     */
    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        Optional<ExtensionContext> factory = factoryOf(extensionContext);
        if (factory.isEmpty()) {
            invocation.proceed();
            return;
        }
        new MeasuredInvocation(factory.get(), extensionContext, TestIdentity.ofDynamic(extensionContext,
                factory.get())).proceed(invocation);
    }

    /** The dynamic test's factory: the nearest context up from it that has a method. */
    private static Optional<ExtensionContext> factoryOf(ExtensionContext dynamic) {
        Optional<ExtensionContext> candidate = dynamic.getParent();
        while (candidate.isPresent() && candidate.get().getTestMethod().isEmpty()) {
            candidate = candidate.get().getParent();
        }
        return candidate;
    }

    private static boolean isFactory(ExtensionContext context) {
        // JUnit requires test and template methods to return void and factories to return their tests: the return
        // type spares every other test the annotation search (meta-annotations included), a cost per test
        return context.getTestMethod().filter(method -> method.getReturnType() != void.class
                && AnnotationSupport.isAnnotated(method, TestFactory.class)).isPresent();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Scopes.closeClassWatches(context);
        VitalsRuntime runtime = Scopes.runtime(context);
        // after Testcontainers' own afterAll (registered after us), whose stop fails on an engine that went away
        runtime.stranded().removeIfBack(runtime.engine(), UserLog.named(UserLog.ENGINE).infoLines(), false);
        ClassReport report = Scopes.classReport(context);
        // what failed the class so far: our beforeAll, a container that did not start, an @AfterAll method;
        // Surefire's XML gives it a test case of its own, beside those of the tests that ran
        // a container that did not start: its exit code and last log lines, added to Testcontainers' failure
        Optional<IllegalStateException> startFailure = ContainerStartFailure.explain(context,
                WatchedField.of(context.getRequiredTestClass()), context.getTestInstance());
        context.getExecutionException().ifPresent(failure -> report.unmeasured(UnmeasuredResults.ofClass(context,
                failure, startFailure.map(Throwable::getMessage))));
        report.finish();
        startFailure.ifPresent(failure -> {
            throw failure;
        });
    }

    // The test watcher runs after the test's invocation: a measured test is in the reports by then, and
    // ClassReport.unmeasured adds only those that are not.

    @Override
    public void testSuccessful(ExtensionContext context) {
        if (isFactory(context)) {
            return; // its dynamic tests are the tests (Surefire's XML lists them, not the factory)
        }
        Scopes.classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.PASSED,
                Optional.empty()));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        Scopes.classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.ABORTED,
                Optional.ofNullable(cause).map(UnmeasuredResults::reason)));
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Scopes.classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.FAILED,
                Optional.ofNullable(cause).map(UnmeasuredResults::reason)));
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        Scopes.classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.SKIPPED,
                reason));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == ResourceMonitor.class;
    }

    /**
     * A test method's own parameter gets a slot its invocation fills (JUnit resolves parameters before it calls
     * interceptors); after the test, its measurement (an {@code @AfterEach} method in the test's context).
     */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        ExtensionContext.Store store = extensionContext.getStore(Scopes.NAMESPACE);
        TestMeasurement measurement = store.get(MeasuredInvocation.MEASUREMENT_KEY, TestMeasurement.class);
        if (measurement != null) {
            return measurement;
        }
        boolean testMethodsOwn = extensionContext.getTestMethod()
                .filter(method -> method.equals(parameterContext.getDeclaringExecutable())).isPresent();
        if (testMethodsOwn && !isFactory(extensionContext)) {
            return store.getOrComputeIfAbsent(MeasuredInvocation.MONITOR_KEY, key -> new MonitorSlot(),
                    MonitorSlot.class);
        }
        throw new ExtensionConfigurationException("ResourceMonitor can only be injected into test methods (not "
                + "constructors, lifecycle methods or other extensions' callbacks) of a class annotated "
                + "@MeasureResources or @ResourceBudget");
    }
}
