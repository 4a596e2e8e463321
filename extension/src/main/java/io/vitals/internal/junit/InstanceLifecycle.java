package io.vitals.internal.junit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.TestInstance;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The test instance lifecycle of a class, as far as it can be told where a {@code ResourceLocksProvider} runs, with
 * no access to JUnit's configuration parameters: {@code @TestInstance} on the class, else the run-wide default from
 * the system property or {@code junit-platform.properties}, JUnit's own order after explicit launcher parameters. A
 * {@code PER_CLASS} default given only as a launcher parameter (Surefire's {@code configurationParameters}) is not
 * seen: the tests of such a class's instance containers take no lock, and their overlapped windows are marked.
 *
 * @param runDefault the default lifecycle of the run
 */
record InstanceLifecycle(TestInstance.Lifecycle runDefault) {

    static InstanceLifecycle ofRun() {
        String value = Optional.ofNullable(System.getProperty(TestInstance.Lifecycle.DEFAULT_LIFECYCLE_PROPERTY_NAME))
                .or(InstanceLifecycle::fromPropertiesFile).orElse("");
        return new InstanceLifecycle("per_class".equals(value.trim().toLowerCase(Locale.ROOT))
                ? TestInstance.Lifecycle.PER_CLASS : TestInstance.Lifecycle.PER_METHOD);
    }

    private static Optional<String> fromPropertiesFile() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream("junit-platform.properties")) {
            if (in == null) {
                return Optional.empty();
            }
            Properties properties = new Properties();
            properties.load(in);
            return Optional.ofNullable(properties.getProperty(TestInstance.Lifecycle.DEFAULT_LIFECYCLE_PROPERTY_NAME));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty(); // JUnit reports an unreadable file itself
        }
    }

    /** Whether one instance of {@code testClass} serves all its tests. */
    boolean perClass(Class<?> testClass) {
        return AnnotationSupport.findAnnotation(testClass, TestInstance.class).map(TestInstance::value)
                .orElse(runDefault) == TestInstance.Lifecycle.PER_CLASS;
    }
}
