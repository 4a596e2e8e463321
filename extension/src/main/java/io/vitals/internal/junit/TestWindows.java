package io.vitals.internal.junit;

import io.vitals.Measured;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.probe.ContainerGoneException;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.WindowOwner;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.testcontainers.containers.ContainerState;

/**
 * Opens a test's measurement windows: one on every watched container that runs (watching it first if no test did
 * yet), with the guards that read its samples, and the judgement that will read them.
 */
final class TestWindows {

    private static final UserLog LOG = UserLog.named(UserLog.TEST);

    /**
     * A test's windows, open.
     *
     * @param measurement the windows, which the test's {@code ResourceMonitor} reads
     * @param judgement the verdict that will read them
     * @param failFast the guards that may interrupt the test thread
     */
    record Opened(TestMeasurement measurement, Judgement judgement, FailFastScope failFast) {
    }

    private TestWindows() {
    }

    /**
     * Opens the windows of a test, on the calling thread, which a fail-fast guard interrupts. {@code test} has its
     * class, method and instances (a dynamic test's factory); {@code own} is the test's own context, whose name the
     * windows and messages carry. Windows opened before a failure are closed again.
     */
    static Opened open(ExtensionContext test, ExtensionContext own) throws Exception {
        Settings settings = Scopes.settings(test);
        Scopes.classReport(test); // before any watch enters the class store, so that it closes after them
        Class<?> testClass = test.getRequiredTestClass();
        String testName = own.getDisplayName();
        List<WatchedField> fields = WatchedField.of(testClass);
        List<String> names = fields.stream().map(WatchedField::name).toList();
        BudgetPlan plan = Scopes.budgetPlan(test, names);
        List<MeasuredContainer> measured = new ArrayList<>();
        List<FailFastGuard> guards = new ArrayList<>();
        // one owner for all of this test's windows: a shared container's watch tells other tests' windows by it
        WindowOwner owner = new WindowOwner(testName, testClass.getName());
        try {
            for (WatchedField field : fields) {
                Optional<ContainerState> container = field.container(Scopes.instanceFor(test, field));
                ContainerWatches watches = Scopes.watchesFor(test, own, field);
                if (container.isEmpty() || container.get().getContainerId() == null
                        || !isRunning(watches, container.get())) {
                    if (AnnotationSupport.isAnnotated(field.field(), Measured.class)) {
                        LOG.warn("@Measured field '" + field.name() + "' of " + testClass.getSimpleName()
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
                        Scopes.runtime(test));
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
                EngineHeartbeat engine = Scopes.runtime(test).engine();
                if (failFast.isEmpty()) {
                    window.onReading(memoryGuard.andThen(engine));
                } else {
                    FailFastGuard guard = new FailFastGuard(field.name(), failFast, window, Thread.currentThread());
                    guards.add(guard);
                    window.onReading(memoryGuard.andThen(guard).andThen(engine));
                }
                measured.add(new MeasuredContainer(field.name(), watched.containerId(), container.get(),
                        watched.watch(), window, watched.limits()));
                Scopes.unreachableBudgets(test).check(field.name(), watched.limits(), plan);
            }
        } catch (ProbeException e) {
            measured.forEach(m -> m.window().close());
            throw new IllegalStateException("Cannot measure the containers of " + testName + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            // the test will not run: a window left open would count its container towards no test
            measured.forEach(m -> m.window().close());
            throw e;
        }
        return new Opened(new TestMeasurement(measured),
                new Judgement(plan, settings.strict(), Instant.now(), guards, Scopes.runtime(test).engine()),
                new FailFastScope(guards));
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
}
