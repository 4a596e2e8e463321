package io.vitals.internal.junit;

import io.vitals.Measured;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.junit.jupiter.Container;

/**
 * A field whose container is measured: every {@code @Container} field and every {@link Measured} field of a test
 * class and of the classes enclosing it (for {@code @Nested} tests).
 *
 * @param name the name in reports and budgets: the field name, or {@code Outer.field} where names clash
 * @param field the field
 */
record WatchedField(String name, Field field) {

    boolean isStatic() {
        return Modifier.isStatic(field.getModifiers());
    }

    Class<?> declaringClass() {
        return field.getDeclaringClass();
    }

    /** The container the field holds now, if it holds one; {@code instance} is ignored for static fields. */
    Optional<ContainerState> container(Optional<Object> instance) {
        Object value;
        try {
            field.setAccessible(true);
            value = field.get(isStatic() ? null : instance.orElse(null));
        } catch (IllegalAccessException | RuntimeException e) {
            return Optional.empty();
        }
        return value instanceof ContainerState state ? Optional.of(state) : Optional.empty();
    }

    /** Finds the fields of {@code testClass} and its enclosing classes, outermost first. */
    static List<WatchedField> of(Class<?> testClass) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            classes.add(0, c);
            if (Modifier.isStatic(c.getModifiers())) {
                break; // a static nested class has no enclosing instance whose fields belong to the test
            }
        }
        List<Field> fields = new ArrayList<>();
        for (Class<?> c : classes) {
            fields.addAll(ReflectionSupport.findFields(c, WatchedField::isWatched, HierarchyTraversalMode.TOP_DOWN));
        }
        Map<String, Integer> counts = new HashMap<>();
        fields.forEach(f -> counts.merge(f.getName(), 1, Integer::sum));
        List<WatchedField> watched = new ArrayList<>();
        for (Field f : fields) {
            String name = counts.get(f.getName()) > 1 ? f.getDeclaringClass().getSimpleName() + "." + f.getName()
                    : f.getName();
            watched.add(new WatchedField(name, f));
        }
        return watched;
    }

    private static boolean isWatched(Field field) {
        return AnnotationSupport.isAnnotated(field, Container.class)
                || AnnotationSupport.isAnnotated(field, Measured.class);
    }
}
