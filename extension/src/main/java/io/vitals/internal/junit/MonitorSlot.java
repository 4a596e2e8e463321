package io.vitals.internal.junit;

import io.vitals.ResourceMonitor;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;

import java.util.Map;

/**
 * The {@link ResourceMonitor} a test method gets injected. JUnit resolves a method's parameters before it calls
 * the interceptors around it, and the windows open in the interceptor (so that they cover the test alone): the
 * test gets this slot, which the interceptor fills with the measurement before the method runs.
 */
final class MonitorSlot implements ResourceMonitor {

    private volatile TestMeasurement measurement;

    void bind(TestMeasurement measurement) {
        this.measurement = measurement;
    }

    private TestMeasurement measurement() {
        TestMeasurement bound = measurement;
        if (bound == null) {
            throw new IllegalStateException("The test's measurement has not begun: a ResourceMonitor measures the "
                    + "test method it was injected into, while it runs");
        }
        return bound;
    }

    @Override
    public ResourceUsage usage() {
        return measurement().usage();
    }

    @Override
    public ResourceUsage usage(String container) {
        return measurement().usage(container);
    }

    @Override
    public Map<String, ResourceUsage> usages() {
        return measurement().usages();
    }

    @Override
    public ResourceSnapshot snapshot() {
        return measurement().snapshot();
    }

    @Override
    public ResourceSnapshot snapshot(String container) {
        return measurement().snapshot(container);
    }

    @Override
    public void mark(String phase) {
        measurement().mark(phase);
    }
}
