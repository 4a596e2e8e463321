package io.vitals.internal.junit;

import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;

import org.testcontainers.containers.ContainerState;

/**
 * One container as one test measures it.
 *
 * @param name its field name
 * @param containerId its ID
 * @param container the Testcontainers handle (for inspect and logs)
 * @param watch the shared watch
 * @param window this test's window on it
 * @param limits the limits it runs under
 */
record MeasuredContainer(String name, String containerId, ContainerState container, ContainerWatch watch,
        MeasurementWindow window, ContainerLimits limits) {
}
