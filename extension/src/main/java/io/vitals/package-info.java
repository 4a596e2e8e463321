/**
 * Vitals' public API: the annotations ({@link io.vitals.MeasureResources}, {@link io.vitals.ResourceBudget},
 * {@link io.vitals.Measured}), the figures a test gets ({@link io.vitals.ResourceUsage} and its value types) and
 * the failures it throws. Internal code depends on it, not the reverse: the extension behind the annotations is found
 * through {@link io.vitals.MeasurementCallbacks}; it uses the unit helpers of {@code io.vitals.internal.units} and,
 * until that edge is gone, the metric model for the sourced figures (see docs/architecture.md).
 */
package io.vitals;
