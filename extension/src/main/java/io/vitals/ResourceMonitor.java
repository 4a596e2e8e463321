package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;

import org.apiguardian.api.API;

/**
 * The running measurement of the current test, injected as a test method parameter.
 *
 * <pre>{@code
 * @Test
 * void trainsAndEvaluates(ResourceMonitor monitor) throws Exception {
 *     monitor.mark("train");
 *     tf.train("--epochs", "1");
 *     monitor.mark("evaluate");
 *     ...
 *     assertThat(monitor.usage().phase("train").orElseThrow().usage()).hasPeakMemoryAtMost("1GiB");
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ResourceMonitor {

    /**
     * The usage so far of the only watched container: from the start of the test to this call. The report and
     * {@code @ResourceBudget} judge the whole test instead, so figures that depend on the window, above all
     * {@link ResourceUsage#memoryGrowth()}, can differ from the report's (a ramp then a plateau reads steep early
     * and flat over the whole test).
     *
     * @return its usage from the start of the test until now
     * @throws IllegalStateException when several containers are watched; the message names them
     */
    ResourceUsage usage();

    /**
     * The usage so far of the container held by the field {@code container}.
     *
     * @param container the name of the field that holds the container
     * @return its usage from the start of the test until now
     * @throws IllegalArgumentException when no watched container has that name; the message names those watched
     */
    ResourceUsage usage(String container);

    /** {@return the usage so far of every watched container, by field name} */
    Map<String, ResourceUsage> usages();

    /** {@return the figures of the only watched container right now} */
    ResourceSnapshot snapshot();

    /**
     * The figures of the container held by the field {@code container} right now.
     *
     * @param container the name of the field that holds the container
     * @return its figures as read now
     * @throws IllegalArgumentException when no watched container has that name; the message names those watched
     */
    ResourceSnapshot snapshot(String container);

    /**
     * Starts a named phase of the test, in every watched container's timeline; the previous phase ends here.
     * Each phase gets its own usage ({@link ResourceUsage#phase(String)}) and its own budget checks.
     *
     * @param phase the phase's name, as {@link ResourceBudget#phase()} and the reports give it
     * @throws IllegalArgumentException if {@code phase} is null or blank
     */
    void mark(String phase);
}
