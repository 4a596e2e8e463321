package io.vitals.internal.junit;

import io.vitals.MeasureResources;
import io.vitals.internal.agent.EngineAgent;
import io.vitals.internal.junit.engine.SessionAgent;
import io.vitals.internal.settings.InvalidSettingException;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Where the extension keeps what outlives one callback: in the ExtensionContext stores, so that JUnit closes each
 * value (they are {@link AutoCloseable}) when its scope ends, and no state is static. The Vitals agent lives in the
 * launcher session's store (one per fork, however many classes it runs), the run's runtime and reports in the root
 * store, a class's settings and report end in the class's store, watches in the store of the scope
 * their container lives in.
 */
final class Scopes {

    static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ResourceMeasurementExtension.class);
    private static final String RUNTIME_KEY = "runtime";
    private static final String SETTINGS_KEY = "settings";
    // Stores look keys up in their parents too: a test's own watches need a key of their own, or a test would find
    // (and add its instance containers to) its class's.
    private static final String CLASS_WATCHES_KEY = "class-watches";
    private static final String METHOD_WATCHES_KEY = "method-watches";
    private static final String REPORTS_KEY = "reports";
    private static final String AGENT_KEY = "agent";
    private static final String CLASS_REPORT_KEY = "class-report";
    private static final String UNREACHABLE_BUDGETS_KEY = "unreachable-budgets";
    // found from a @Nested class's context too: stores look keys up in their parents
    private static final String BUDGET_PLANS_KEY = "budget-plans";

    private Scopes() {
    }

    static VitalsRuntime runtime(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(RUNTIME_KEY,
                key -> new VitalsRuntime(context.getRoot()::getConfigurationParameter, agent(context)),
                VitalsRuntime.class);
    }

    /** The launcher session's agent ({@link SessionAgent}); the run's where JUnit has no session store. */
    private static EngineAgent agent(ExtensionContext context) {
        ExtensionContext.Store store;
        try {
            store = context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NAMESPACE);
        } catch (IncompatibleClassChangeError | NoClassDefFoundError beforeJUnit513) {
            // JUnit 5.10-5.12 have no session store (an older API: no such method or class; an older engine under
            // a newer API: the method is abstract there): one agent per run, as many as a fork has classes
            store = context.getRoot().getStore(NAMESPACE);
        }
        try {
            return store.getOrComputeIfAbsent(AGENT_KEY,
                    key -> new SessionAgent(context.getRoot()::getConfigurationParameter), SessionAgent.class).agent();
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(e.getMessage(), e);
        }
    }

    static Reports reports(ExtensionContext context, Path reportDir) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(REPORTS_KEY + ":" + reportDir, key -> {
            Reports reports = Reports.open(reportDir, context::getConfigurationParameter);
            runProgress(context).ifPresent(progress -> progress.whenLastTestEnded(reports::lastTestEnded));
            return reports;
        }, Reports.class);
    }

    /** The launcher session's {@link RunProgress}; none where the tests run without a launcher or before 5.13. */
    private static Optional<RunProgress> runProgress(ExtensionContext context) {
        try {
            return Optional.ofNullable(context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NAMESPACE)
                    .get(RunProgress.KEY, RunProgress.class));
        } catch (IncompatibleClassChangeError | NoClassDefFoundError beforeJUnit513) {
            return Optional.empty();
        }
    }

    /** The report end of the test class, created once per class context. */
    static ClassReport classReport(ExtensionContext context) {
        ExtensionContext owner = classContext(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(CLASS_REPORT_KEY,
                key -> new ClassReport(reports(owner, reportDir(owner)), owner.getRequiredTestClass()),
                ClassReport.class);
    }

    /**
     * Checks the budgets of the class of {@code context} and its {@code @Nested} classes once, in its
     * {@code beforeAll}, and keeps their plans in its store; a nested class finds its outer class's there.
     *
     * @throws ExtensionConfigurationException listing every bad value (see {@link BudgetPlan#checkClass})
     */
    static void checkBudgets(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (store.get(BUDGET_PLANS_KEY, BudgetPlan.ClassPlans.class) == null) {
            store.put(BUDGET_PLANS_KEY, BudgetPlan.checkClass(context.getRequiredTestClass(),
                    c -> WatchedField.of(c).stream().map(WatchedField::name).toList()));
        }
    }

    /**
     * The budget plan of the test of {@code test} (a test method, a template or a dynamic test's factory), as checked
     * in its class's {@code beforeAll}; built here, checking every value, where no {@code beforeAll} of ours ran (a
     * {@code @ResourceBudget} on a method alone registers the extension for that method only).
     */
    static BudgetPlan budgetPlan(ExtensionContext test, List<String> containers) {
        Class<?> testClass = test.getRequiredTestClass();
        return Optional.ofNullable(test.getStore(NAMESPACE).get(BUDGET_PLANS_KEY, BudgetPlan.ClassPlans.class))
                .flatMap(plans -> plans.planOf(testClass, test.getTestMethod()))
                .orElseGet(() -> BudgetPlan.of(testClass, test.getTestMethod(), containers));
    }

    /** The warnings of budgets a container's limits keep from breaking, given once per class and container. */
    static UnreachableBudgets unreachableBudgets(ExtensionContext context) {
        ExtensionContext owner = classContext(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(UNREACHABLE_BUDGETS_KEY,
                key -> new UnreachableBudgets(owner.getRequiredTestClass().getSimpleName()),
                UnreachableBudgets.class);
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

    /** Settings of the test class, resolved once per class context. */
    static Settings settings(ExtensionContext context) {
        ExtensionContext owner = classContext(context);
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(SETTINGS_KEY,
                key -> Settings.resolve(AnnotationSupport.findAnnotation(owner.getTestClass(), MeasureResources.class),
                        owner::getConfigurationParameter),
                Settings.class);
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext;
    }

    /**
     * The watches of the scope a field's container lives in: the class context for static fields (and for instance
     * fields under {@code PER_CLASS} lifecycle), the test's own context for instance fields. Testcontainers puts
     * its containers into the same stores before we put the watches there, and stores close in reverse order: a
     * watch ends before its container is stopped. {@code context} has the test's class and lifecycle; {@code own}
     * is the test's own context (a dynamic test's, under its factory's).
     */
    static ContainerWatches watchesFor(ExtensionContext context, ExtensionContext own, WatchedField field) {
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

    /** Ends the class's shared watches now, before the class's store closes and Testcontainers stops them. */
    static void closeClassWatches(ExtensionContext classContext) {
        ContainerWatches watches = classContext.getStore(NAMESPACE).remove(CLASS_WATCHES_KEY, ContainerWatches.class);
        if (watches != null) {
            watches.close();
        }
    }

    static Optional<Object> instanceFor(ExtensionContext context, WatchedField field) {
        if (field.isStatic()) {
            return Optional.empty();
        }
        return context.getTestInstances().flatMap(instances -> instances.findInstance(field.declaringClass())
                .map(Object.class::cast));
    }
}
