/**
 * Vitals' public API: the annotations ({@link io.vitals.MeasureResources}, {@link io.vitals.ResourceBudget},
 * {@link io.vitals.Measured}), the figures a test gets ({@link io.vitals.ResourceUsage} and its value types) and
 * the failures it throws. Internal code depends on it, not the reverse: the extension behind the annotations and the
 * metric model are found through {@link io.vitals.MeasurementCallbacks} and {@link io.vitals.FigureModel}; it uses
 * no internal package but the unit helpers of {@code io.vitals.internal.units} (see docs/architecture.md).
 */
package io.vitals;
