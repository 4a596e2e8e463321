package io.vitals.internal.junit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Tells, from the launcher's test plan, when the last test of an execution has ended: every test, and every
 * container of tests below a class (a repeated or parameterized test, a factory), is finished or skipped, and only
 * classes and engines are still open. What is left then is their ending: {@code @AfterAll} methods and the
 * containers the classes stop, which is when the run's report files can be written beside those stops instead of
 * after them ({@link Reports#lastTestEnded()}).
 *
 * <p>Approximate by design, and safe either way: a signal that comes early (a class with no test at all is still to
 * run) costs one writing of the report files more, as the session writes them again at its close when anything
 * changed since; one that never comes (a class whose setup failed leaves its tests unreported) costs only the
 * overlap. At most one signal per execution. One instance per launcher session ({@link RunProgressSessionListener}),
 * found by the extension in the session's store.
 */
final class RunProgress implements TestExecutionListener {

    /** The key of the instance in the launcher session's store, in {@link Scopes#NAMESPACE}. */
    static final String KEY = "run-progress";

    // every identifier of the plan not yet finished or skipped, and how many of them are neither class nor engine
    // (the id objects: their string form is built anew at each call, a cost per test event)
    private final Set<UniqueId> unfinished = new HashSet<>();
    private final List<Runnable> whenLastTestEnded = new ArrayList<>();
    private int openBelowClasses;
    private TestPlan plan;
    private boolean signalled;

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        unfinished.clear();
        whenLastTestEnded.clear();
        openBelowClasses = 0;
        signalled = false;
        for (TestIdentifier root : testPlan.getRoots()) {
            add(root);
            testPlan.getDescendants(root).forEach(this::add);
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        plan = null;
        unfinished.clear();
        whenLastTestEnded.clear();
        signalled = true;
    }

    @Override
    public synchronized void dynamicTestRegistered(TestIdentifier testIdentifier) {
        add(testIdentifier);
    }

    @Override
    public void executionSkipped(TestIdentifier testIdentifier, String reason) {
        List<Runnable> due;
        synchronized (this) {
            remove(testIdentifier);
            if (plan != null) {
                // a skipped container's tests get no events of their own
                plan.getDescendants(testIdentifier).forEach(this::remove);
            }
            due = due();
        }
        due.forEach(Runnable::run);
    }

    @Override
    public void executionFinished(TestIdentifier testIdentifier, TestExecutionResult result) {
        List<Runnable> due;
        synchronized (this) {
            remove(testIdentifier);
            due = due();
        }
        due.forEach(Runnable::run);
    }

    /**
     * Runs {@code action} once, on the thread that ends the execution's last test; never if the signal has come
     * already or no execution is under way.
     */
    synchronized void whenLastTestEnded(Runnable action) {
        if (plan != null && !signalled) {
            whenLastTestEnded.add(action);
        }
    }

    private void add(TestIdentifier identifier) {
        if (unfinished.add(identifier.getUniqueIdObject()) && !classOrEngine(identifier)) {
            openBelowClasses++;
        }
    }

    private void remove(TestIdentifier identifier) {
        if (unfinished.remove(identifier.getUniqueIdObject()) && !classOrEngine(identifier)) {
            openBelowClasses--;
        }
    }

    private List<Runnable> due() {
        if (signalled || plan == null || openBelowClasses > 0) {
            return List.of();
        }
        signalled = true;
        List<Runnable> due = List.copyOf(whenLastTestEnded);
        whenLastTestEnded.clear();
        return due;
    }

    private static boolean classOrEngine(TestIdentifier identifier) {
        return identifier.getParentIdObject().isEmpty()
                || identifier.getSource().filter(ClassSource.class::isInstance).isPresent();
    }
}
