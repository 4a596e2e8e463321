package io.vitals.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ContainerFaultError;
import io.vitals.MeasureResources;
import io.vitals.Measured;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceBudget;
import io.vitals.ResourceMonitor;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.report.TestResult;
import io.vitals.internal.report.baseline.BaselineVerdict;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.WindowOwner;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import org.apiguardian.api.API;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.testcontainers.containers.ContainerState;

/**
 * The extension behind {@link MeasureResources}.
 *
 * <p>Approach: budgets and settings are checked in {@code beforeAll}, before Testcontainers (registered after us)
 * starts anything. Right before each test method runs, every watched container that is running gets a watch (one
 * per container, in the store of the scope the container lives in) and a measurement window for this test. When
 * the method has run, the windows are closed, faults and budgets judged, reports written, and the test failed if
 * it must be. If the test method throws, the exception handler does the judging first, so that an OOM kill is
 * what the failure says even when the test's own exception was only its consequence.
 *
 * <p>A {@code @TestFactory} method only builds its dynamic tests: it gets no window and no entry of its own (Surefire's
 * XML has none for it either). Each dynamic test is measured, judged and reported on its own, around its invocation
 * ({@link #interceptDynamicTest}), with the settings, budgets and containers of its factory's method and class.
 *
 * <p>Every test JUnit reports is in the reports, also one that never got a measurement: the test watcher hands over
 * a test that failed or was aborted before its window opened, or was disabled; {@code afterAll} one entry for a
 * class whose setup or teardown failed (an invalid budget, a container that did not start); the execution condition
 * the tests of a class it disables. See {@link UnmeasuredResults} for how they match Surefire's XML.
 */
@API(status = INTERNAL, since = "0.1")
public final class ResourceMeasurementExtension implements ExecutionCondition, BeforeAllCallback,
        BeforeTestExecutionCallback, TestExecutionExceptionHandler, AfterTestExecutionCallback, AfterAllCallback,
        TestWatcher, ParameterResolver, InvocationInterceptor {

    private static final Logger LOG = Logger.getLogger(ResourceMeasurementExtension.class.getName());
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ResourceMeasurementExtension.class);
    private static final String RUNTIME_KEY = "runtime";
    private static final String SETTINGS_KEY = "settings";
    // Stores look keys up in their parents too: a test's own watches need a key of their own, or a test would find
    // (and add its instance containers to) its class's.
    private static final String CLASS_WATCHES_KEY = "class-watches";
    private static final String METHOD_WATCHES_KEY = "method-watches";
    private static final String MEASUREMENT_KEY = "measurement";
    private static final String JUDGEMENT_KEY = "judgement";
    private static final String REPORTS_KEY = "reports";
    private static final String CLASS_REPORT_KEY = "class-report";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        // a test method, or a dynamic test (whose context names neither class nor method)
        if (context.getTestMethod().isPresent() || context.getTestClass().isEmpty()) {
            return ConditionEvaluationResult.enabled("decided for the class");
        }
        ConditionEvaluationResult result = new EngineGate(System.err).condition(context.getDisplayName(),
                runtime(context).docker(), () -> requiresDocker(context));
        if (result.isDisabled()) {
            // no callback of ours runs for a disabled class: its tests go into the reports here, as skipped
            ClassReport report = classReport(context);
            UnmeasuredResults.ofSkippedClass(context, result.getReason().orElse("Docker is not available"))
                    .forEach(report::unmeasured);
            report.finish();
        }
        return result;
    }

    /** {@code vitals.requireDocker}; true when the settings are bad, which {@code beforeAll} then reports. */
    private static boolean requiresDocker(ExtensionContext context) {
        try {
            return settings(context).requireDocker();
        } catch (ExtensionConfigurationException e) {
            return true;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Settings settings = settings(context);
        EngineGate.failIfUnusable(runtime(context).docker());
        Class<?> testClass = context.getRequiredTestClass();
        List<String> names = WatchedField.of(testClass).stream().map(WatchedField::name).toList();
        BudgetPlan.of(testClass, Optional.empty(), names);
        for (Method method : ReflectionSupport.findMethods(testClass,
                m -> AnnotationSupport.isAnnotated(m, ResourceBudget.class)
                        || AnnotationSupport.isAnnotated(m, ResourceBudget.List.class),
                HierarchyTraversalMode.TOP_DOWN)) {
            BudgetPlan.of(testClass, Optional.of(method), names);
        }
        classReport(context);
        StartupWitness.install(WatchedField.of(testClass)); // before Testcontainers (registered after us) starts them
    }

    @Override
    public void beforeTestExecution(ExtensionContext context) throws Exception {
        if (isFactory(context)) {
            return; // its dynamic tests are measured one by one, see interceptDynamicTest
        }
        Opened opened = openWindows(context, context);
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        store.put(MEASUREMENT_KEY, opened.measurement());
        store.put(JUDGEMENT_KEY, opened.judgement());
    }

    /** A test's windows, open, and the judgement that will read them. */
    private record Opened(TestMeasurement measurement, Judgement judgement) {
    }

    /**
     * Opens the windows of a test. {@code test} has its class, method and instances (a dynamic test's factory);
     * {@code own} is the test's own context, whose name the windows and messages carry.
     */
    private static Opened openWindows(ExtensionContext test, ExtensionContext own) throws Exception {
        Settings settings = settings(test);
        classReport(test); // before any watch enters the class store, so that it closes after them
        Class<?> testClass = test.getRequiredTestClass();
        String testName = own.getDisplayName();
        List<WatchedField> fields = WatchedField.of(testClass);
        List<String> names = fields.stream().map(WatchedField::name).toList();
        BudgetPlan plan = BudgetPlan.of(testClass, test.getTestMethod(), names);
        List<MeasuredContainer> measured = new ArrayList<>();
        List<FailFastGuard> guards = new ArrayList<>();
        // one owner for all of this test's windows: a shared container's watch tells other tests' windows by it
        WindowOwner owner = new WindowOwner(testName, testClass.getName());
        try {
            for (WatchedField field : fields) {
                Optional<ContainerState> container = field.container(instanceFor(test, field));
                ContainerWatches watches = watchesFor(test, own, field);
                if (container.isEmpty() || container.get().getContainerId() == null
                        || !isRunning(watches, container.get())) {
                    if (AnnotationSupport.isAnnotated(field.field(), Measured.class)) {
                        LOG.warning(() -> "@Measured field '" + field.name() + "' of " + testClass.getSimpleName()
                                + " holds no running container when " + testName
                                + " starts; it is not measured");
                        continue;
                    }
                    throw new ExtensionConfigurationException("Container field '" + field.name() + "' of "
                            + testClass.getSimpleName() + " holds no running container when "
                            + testName + " starts"
                            + ContainerStartFailure.notRunningHint(testClass, field, container));
                }
                ContainerWatches.Watched watched = watches.watch(field.name(), container.get(), settings,
                        runtime(test));
                MeasurementWindow window;
                try {
                    window = watched.watch().openWindow(owner);
                } catch (ContainerGoneException e) {
                    // stopped since the last test (the cgroup or init process is gone): say so as docker would
                    throw new ExtensionConfigurationException("Container field '" + field.name() + "' of "
                            + testClass.getSimpleName() + " holds no running container when "
                            + testName + " starts (" + e.getMessage() + ")");
                }
                MemoryGuard memoryGuard = new MemoryGuard(field.name(), testName, window,
                        settings.memoryWarning());
                List<Limit> failFast = plan.failFastLimits(field.name());
                EngineHeartbeat engine = runtime(test).engine();
                if (failFast.isEmpty()) {
                    window.onReading(memoryGuard.andThen(engine));
                } else {
                    FailFastGuard guard = new FailFastGuard(field.name(), failFast, window, Thread.currentThread());
                    guards.add(guard);
                    window.onReading(memoryGuard.andThen(guard).andThen(engine));
                }
                measured.add(new MeasuredContainer(field.name(), watched.containerId(), container.get(),
                        watched.watch(), window, watched.limits()));
            }
        } catch (ProbeException e) {
            measured.forEach(m -> m.window().close());
            throw new IllegalStateException("Cannot measure the containers of " + testName + ": "
                    + e.getMessage(), e);
        }
        return new Opened(new TestMeasurement(measured), new Judgement(plan, settings.strict(), Instant.now(), guards,
                runtime(test).engine()));
    }

    /**
     * Whether the container runs. One we already watch runs while its probe has not seen it go (its cgroup and
     * init process are checked on every full read, and again when the window opens); asking Testcontainers would
     * cost a Docker API call ({@code docker inspect}) on every test.
     */
    private static boolean isRunning(ContainerWatches watches, ContainerState container) {
        Optional<ContainerWatches.Watched> watched = watches.watching(container.getContainerId());
        if (watched.isPresent()) {
            return watched.get().watch().goneReason().isEmpty();
        }
        return container.isRunning();
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        Optional<TestMeasurement> measurement = measurement(context);
        if (measurement.isEmpty()) {
            throw throwable;
        }
        Judgement judgement = context.getStore(NAMESPACE).get(JUDGEMENT_KEY, Judgement.class);
        throw failureOf(judgement, measurement.get(), throwable);
    }

    /**
     * What a test that threw {@code throwable} fails with: a fault wins over it, and so does the budget breach
     * that made a fail-fast guard end the test; otherwise the throwable itself.
     */
    private static Throwable failureOf(Judgement judgement, TestMeasurement measurement, Throwable throwable) {
        judgement.judge(measurement, Optional.of(throwable));
        Optional<ContainerFaultError> fault = judgement.faultError();
        if (fault.isPresent()) {
            judgement.faultReported();
            fault.get().initCause(throwable);
            return fault.get();
        }
        if (judgement.endedEarly()) {
            // the InterruptedException is our doing: what the test should say is why we ended it
            Optional<ResourceBudgetExceededError> breach = judgement.budgetError(Optional.empty());
            if (breach.isPresent()) {
                judgement.budgetReported();
                Thread.interrupted();
                breach.get().initCause(throwable);
                return breach.get();
            }
        }
        return throwable;
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        Optional<TestMeasurement> measurement = measurement(context);
        if (measurement.isEmpty()) {
            return;
        }
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        Judgement judgement = store.get(JUDGEMENT_KEY, Judgement.class);
        try {
            List<Throwable> failures = finish(context, context, TestIdentity.of(context),
                    context.getExecutionException(), measurement.get(), judgement);
            if (!failures.isEmpty()) {
                Throwable first = failures.get(0);
                failures.subList(1, failures.size()).forEach(first::addSuppressed);
                throwUnchecked(first);
            }
        } finally {
            closeMethodWatches(store);
        }
    }

    /**
     * Judges and reports a test whose windows are open, and returns what it must still fail with (neither a fault
     * nor a breach already thrown from the test). {@code test} and {@code own} as for {@link #openWindows}.
     */
    private static List<Throwable> finish(ExtensionContext test, ExtensionContext own, TestIdentity identity,
            Optional<Throwable> thrown, TestMeasurement measurement, Judgement judgement) {
        judgement.judge(measurement, thrown);
        runtime(test).engine().address().ifPresent(engine -> runtime(test).stranded()
                .add(engine, judgement.strandedContainers(), test.getRequiredTestClass().getSimpleName() + " "
                        + own.getDisplayName()));
        if (judgement.endedEarly()) {
            Thread.interrupted(); // the guard's interrupt must not leak into the next test on this thread
        }
        Reports reports = reports(test, settings(test).reportDir());
        BaselineVerdict verdict = reports.compare(judgement.result(identity, thrown, Optional.empty()));
        Optional<String> regression = verdict.failsTest() ? Optional.of(verdict.message()) : Optional.empty();
        reports.testFinished(own, judgement.result(identity, thrown, regression));
        classReport(test).measured(identity.uniqueId());
        List<Throwable> failures = new ArrayList<>();
        judgement.faultError().filter(error -> !judgement.isFaultReported()).ifPresent(failures::add);
        judgement.budgetError(regression).filter(error -> !judgement.isBudgetReported())
                .ifPresent(failures::add);
        return failures;
    }

    private static void closeMethodWatches(ExtensionContext.Store store) {
        ContainerWatches methodWatches = store.remove(METHOD_WATCHES_KEY, ContainerWatches.class);
        if (methodWatches != null) {
            methodWatches.close();
        }
    }

    /**
     * Measures one dynamic test of a {@code @TestFactory}, as the before- and after-test callbacks measure a test
     * method: those run only around the factory method, which builds the dynamic tests. The dynamic test's context
     * has no class, method or instance; they are its factory's. No test watcher is called for a dynamic test, so
     * one that could not be measured is handed to the reports here.
     */
    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        Optional<ExtensionContext> factory = factoryOf(extensionContext);
        if (factory.isEmpty()) {
            invocation.proceed();
            return;
        }
        ExtensionContext test = factory.get();
        TestIdentity identity = TestIdentity.ofDynamic(extensionContext, test);
        ExtensionContext.Store store = extensionContext.getStore(NAMESPACE);
        try {
            Opened opened;
            try {
                opened = openWindows(test, extensionContext);
            } catch (Throwable e) {
                classReport(test).unmeasured(UnmeasuredResults.ofTest(identity, TestResult.Outcome.FAILED,
                        Optional.of(UnmeasuredResults.reason(e))));
                throw e;
            }
            Optional<Throwable> thrown = Optional.empty();
            try {
                invocation.proceed();
            } catch (Throwable e) {
                thrown = Optional.of(failureOf(opened.judgement(), opened.measurement(), e));
            }
            List<Throwable> failures = finish(test, extensionContext, identity, thrown, opened.measurement(),
                    opened.judgement());
            // as JUnit does with an after-test callback's failure when the test failed already
            Throwable first = thrown.orElse(failures.isEmpty() ? null : failures.get(0));
            if (first != null) {
                failures.stream().filter(failure -> failure != first).forEach(first::addSuppressed);
                throw first;
            }
        } finally {
            closeMethodWatches(store);
        }
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
        return context.getTestMethod().filter(method -> AnnotationSupport.isAnnotated(method, TestFactory.class))
                .isPresent();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ContainerWatches watches = context.getStore(NAMESPACE).remove(CLASS_WATCHES_KEY, ContainerWatches.class);
        if (watches != null) {
            watches.close();
        }
        // after Testcontainers' own afterAll (registered after us), whose stop fails on an engine that went away
        runtime(context).stranded().removeIfBack(runtime(context).engine(), System.err, false);
        ClassReport report = classReport(context);
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

    // The test watcher runs after the test's after-callbacks: a measured test is in the reports by then, and
    // ClassReport.unmeasured adds only those that are not.

    @Override
    public void testSuccessful(ExtensionContext context) {
        if (isFactory(context)) {
            return; // its dynamic tests are the tests (Surefire's XML lists them, not the factory)
        }
        classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.PASSED,
                Optional.empty()));
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.ABORTED,
                Optional.ofNullable(cause).map(UnmeasuredResults::reason)));
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.FAILED,
                Optional.ofNullable(cause).map(UnmeasuredResults::reason)));
    }

    @Override
    public void testDisabled(ExtensionContext context, Optional<String> reason) {
        classReport(context).unmeasured(UnmeasuredResults.ofTest(context, TestResult.Outcome.SKIPPED, reason));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == ResourceMonitor.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return measurement(extensionContext).orElseThrow(() -> new ExtensionConfigurationException(
                "ResourceMonitor can only be injected into test methods (not constructors, lifecycle methods or "
                        + "other extensions' callbacks) of a class annotated @MeasureResources or @ResourceBudget"));
    }

    private static Optional<TestMeasurement> measurement(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(MEASUREMENT_KEY, TestMeasurement.class));
    }

    private static VitalsRuntime runtime(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(RUNTIME_KEY,
                key -> new VitalsRuntime(context.getRoot()::getConfigurationParameter), VitalsRuntime.class);
    }

    private static Reports reports(ExtensionContext context, Path reportDir) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(REPORTS_KEY + ":" + reportDir,
                key -> Reports.open(reportDir, context::getConfigurationParameter), Reports.class);
    }

    /** The report end of the test class, created once per class context. */
    private static ClassReport classReport(ExtensionContext context) {
        ExtensionContext owner = classContext(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(CLASS_REPORT_KEY,
                key -> new ClassReport(reports(owner, reportDir(owner)), owner.getRequiredTestClass()),
                ClassReport.class);
    }

    /** Where the class's reports go; also when another setting is invalid, so that the class failing on it is in them. */
    private static Path reportDir(ExtensionContext classContext) {
        try {
            return settings(classContext).reportDir();
        } catch (ExtensionConfigurationException e) {
            return Settings.reportDirOf(AnnotationSupport.findAnnotation(classContext.getTestClass(),
                    MeasureResources.class), classContext::getConfigurationParameter);
        }
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext;
    }

    /** Settings of the test class, resolved once per class context. */
    private static Settings settings(ExtensionContext context) {
        ExtensionContext owner = classContext(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(SETTINGS_KEY,
                key -> Settings.resolve(AnnotationSupport.findAnnotation(owner.getTestClass(), MeasureResources.class),
                        owner::getConfigurationParameter),
                Settings.class);
    }

    private static Optional<Object> instanceFor(ExtensionContext context, WatchedField field) {
        if (field.isStatic()) {
            return Optional.empty();
        }
        return context.getTestInstances().flatMap(instances -> instances.findInstance(field.declaringClass())
                .map(Object.class::cast));
    }

    /**
     * The store a field's watch lives in: the class context for static fields (and for instance fields under
     * {@code PER_CLASS} lifecycle), the test's own context for instance fields. {@code context} has the test's
     * class and lifecycle; {@code own} is the test's own context (a dynamic test's, under its factory's).
     */
    private static ContainerWatches watchesFor(ExtensionContext context, ExtensionContext own, WatchedField field) {
        ExtensionContext owner = own;
        boolean classScoped = field.isStatic() || context.getTestInstanceLifecycle()
                .filter(lifecycle -> lifecycle == TestInstance.Lifecycle.PER_CLASS).isPresent();
        if (classScoped) {
            ExtensionContext candidate = context;
            while (candidate.getParent().isPresent()) {
                candidate = candidate.getParent().get();
                if (candidate.getTestMethod().isEmpty() && candidate.getTestClass().isPresent()
                        && field.declaringClass().isAssignableFrom(candidate.getTestClass().get())) {
                    owner = candidate;
                }
                if (candidate.getTestClass().filter(c -> c.equals(field.declaringClass())).isPresent()) {
                    owner = candidate;
                    break;
                }
            }
        }
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(classScoped ? CLASS_WATCHES_KEY : METHOD_WATCHES_KEY,
                key -> new ContainerWatches(!classScoped), ContainerWatches.class);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable throwable) throws T {
        throw (T) throwable;
    }

}
