package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * What {@link MeasureResources} and {@link ResourceBudget} register with JUnit, as a service interface: the
 * implementation lives in the internal packages and is found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.vitals.MeasurementCallbacks}), so that internal code depends on the public API and
 * never the reverse. Not for use outside Vitals; it may change in any release.
 */
@API(status = INTERNAL, since = "0.2")
public interface MeasurementCallbacks extends ExecutionCondition, BeforeAllCallback, AfterAllCallback, TestWatcher,
        ParameterResolver, InvocationInterceptor {
}
