/**
 * AssertJ assertions on what a container used: {@code VitalsAssertions.assertThat(usage).hasPeakMemoryAtMost("1.5GiB")}.
 *
 * <p>The assertions judge and word a figure exactly as {@code @ResourceBudget} does: the same metrics, the same
 * unit grammar ({@code "512MiB"}, {@code "250ms"}, {@code "20%"}, {@code "10MiB/min"}) and the same context in a
 * failure (by how much, when, the memory limit and how the figure was measured). Use {@link
 * io.vitals.assertions.VitalsSoftAssertions} to collect several failures at once.
 */
package io.vitals.assertions;
