package io.vitals.internal.junit;

import io.vitals.Measured;

import java.util.Optional;

import org.junit.platform.commons.support.AnnotationSupport;
import org.testcontainers.junit.jupiter.Container;

/**
 * A watched container that several tests may use, named by its JUnit resource lock key; a container that lives for
 * one test only (a {@code @Container} instance field under the {@code PER_METHOD} lifecycle) has none.
 *
 * <p>The key is known before anything runs, from the field alone, so that JUnit can schedule with it: the field's
 * value is not read, as reading a static field would initialize the class and start its containers during
 * discovery. Hence:
 * <ul>
 * <li>a static {@code @Container} field: one key per field, {@code io.vitals.container:Declaring#field}, the same
 *     for every subclass and {@code @Nested} class reaching it;
 * <li>an instance {@code @Container} field under {@code PER_CLASS}: one key per field and class whose instance holds
 *     it, as every class gets an instance (and a container) of its own;
 * <li>a {@link Measured} field: one key per declared type, {@code io.vitals.container:measured:Type}.
 *     Such a container is started elsewhere, often once per JVM and reached through a field of each class that uses
 *     it (the singleton-container pattern), which its fields' names cannot tell; the tests of two different
 *     containers of one type are only kept apart needlessly, never measured together.
 * </ul>
 *
 * @param key the resource lock key
 */
record SharedContainer(String key) {

    static final String KEY_PREFIX = "io.vitals.container:";

    /** The shared container {@code field} holds for the tests of {@code testClass}, if it is shared. */
    static Optional<SharedContainer> of(WatchedField field, Class<?> testClass, InstanceLifecycle lifecycle) {
        String name = field.declaringClass().getName() + "#" + field.field().getName();
        if (measuredOnly(field)) {
            return Optional.of(new SharedContainer(KEY_PREFIX + "measured:" + field.field().getType().getName()));
        }
        if (field.isStatic()) {
            return Optional.of(new SharedContainer(KEY_PREFIX + name));
        }
        Class<?> owner = instanceOwner(field, testClass);
        return lifecycle.perClass(owner) ? Optional.of(new SharedContainer(KEY_PREFIX + owner.getName() + "/" + name))
                : Optional.empty();
    }

    /** Whether {@code field} is {@link Measured} only: its container is started elsewhere, maybe shared by classes. */
    private static boolean measuredOnly(WatchedField field) {
        return AnnotationSupport.isAnnotated(field.field(), Measured.class)
                && !AnnotationSupport.isAnnotated(field.field(), Container.class);
    }

    /** The class, {@code testClass} or one enclosing it, whose instance holds the field. */
    private static Class<?> instanceOwner(WatchedField field, Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            if (field.declaringClass().isAssignableFrom(c)) {
                return c;
            }
        }
        return testClass;
    }
}
