package io.vitals;

import java.lang.reflect.Method;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * The lock provider {@link MeasureResources} names in its {@code @ResourceLock}: package-private, beside the
 * annotation (as {@link ResourceMeasurement} is for the extension), it hands each question to the
 * {@link ContainerLocksProvider} it loads through {@link ServiceLoader} when JUnit creates it. JUnit creates a
 * provider where it needs one, before any extension context exists, so each instance has a delegate of its own, as
 * the implementation named directly had.
 */
final class ResourceMeasurementLocks implements ResourceLocksProvider {

    private final ContainerLocksProvider delegate = ServiceLoader
            .load(ContainerLocksProvider.class, ContainerLocksProvider.class.getClassLoader()).findFirst()
            .orElseThrow(() -> new IllegalStateException("No implementation of "
                    + ContainerLocksProvider.class.getName() + " on the class path: Vitals' jar declares one in "
                    + "META-INF/services/" + ContainerLocksProvider.class.getName() + "; is the jar incomplete?"));

    @Override
    public Set<Lock> provideForClass(Class<?> testClass) {
        return delegate.provideForClass(testClass);
    }

    @Override
    public Set<Lock> provideForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> testClass) {
        return delegate.provideForNestedClass(enclosingInstanceTypes, testClass);
    }

    @Override
    public Set<Lock> provideForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
        return delegate.provideForMethod(enclosingInstanceTypes, testClass, testMethod);
    }
}
