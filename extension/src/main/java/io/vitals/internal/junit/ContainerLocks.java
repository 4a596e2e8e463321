package io.vitals.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ContainerLocksProvider;
import io.vitals.SharedLoad;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apiguardian.api.API;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit resource locks of a test class on the containers its tests share with other tests, so that JUnit's
 * parallel execution runs the tests of one shared container one at a time and everything else concurrently, with no
 * lock of ours: JUnit's scheduler knows them before anything runs.
 *
 * <p>{@link io.vitals.MeasureResources} names a package-private provider in its {@code @ResourceLock} that loads this
 * one through {@link java.util.ServiceLoader}, and JUnit asks it for the class and each of its {@code @Nested}
 * classes. The locks are the class's, not each test method's, although a
 * window is a test's: Testcontainers starts a class's static containers in its {@code @BeforeAll} and stops them in
 * its {@code @AfterAll}, so a container of a superclass, shared by subclasses run concurrently, would be stopped by
 * one class under another's running tests; held by the class, the lock covers that too. It costs no concurrency
 * the windows would allow: every test of a class has a window on every container the class watches. JUnit runs the
 * tests of a class holding a read-write lock in one thread, one after the other. The locks are derived from the same
 * fields the extension watches ({@link WatchedField}); which are shared, and under which key, is
 * {@link SharedContainer}'s call.
 */
@API(status = INTERNAL, since = "0.1")
public final class ContainerLocks implements ContainerLocksProvider {

    private final InstanceLifecycle lifecycle = InstanceLifecycle.ofRun();

    @Override
    public Set<Lock> provideForClass(Class<?> testClass) {
        return locksOf(testClass, lifecycle);
    }

    /** A {@code @Nested} class's locks: those of its own containers (its enclosing classes' are theirs already). */
    @Override
    public Set<Lock> provideForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> testClass) {
        return locksOf(testClass, lifecycle);
    }

    /**
     * The locks of every test of {@code testClass}: one per shared container its tests watch, read-write unless
     * {@link SharedLoad}; read-write where two fields of one key disagree (two {@code @Measured} fields of a type).
     */
    static Set<Lock> locksOf(Class<?> testClass, InstanceLifecycle lifecycle) {
        Map<String, ResourceAccessMode> modes = new LinkedHashMap<>();
        boolean classShared = sharedLoad(testClass);
        for (WatchedField field : WatchedField.of(testClass)) {
            SharedContainer.of(field, testClass, lifecycle).ifPresent(container -> {
                boolean shared = classShared || AnnotationSupport.isAnnotated(field.field(), SharedLoad.class);
                modes.merge(container.key(), shared ? ResourceAccessMode.READ : ResourceAccessMode.READ_WRITE,
                        (a, b) -> a == ResourceAccessMode.READ_WRITE ? a : b);
            });
        }
        Set<Lock> locks = new LinkedHashSet<>();
        modes.forEach((key, mode) -> locks.add(new Lock(key, mode)));
        return locks;
    }

    /** {@link SharedLoad} on the class, a superclass or an enclosing class of a {@code @Nested} test. */
    private static boolean sharedLoad(Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            if (AnnotationSupport.isAnnotated(c, SharedLoad.class)) {
                return true;
            }
        }
        return false;
    }
}
