/**
 * Internal: the metric model. One {@link io.vitals.internal.metric.Metric} entry per figure carries its key and
 * {@code @ResourceBudget} attribute, label, unit with parser and formatter, direction, extractor, how it is
 * obtained, baseline noise floor and Prometheus family; budgets, assertions and every report read from it. Not part
 * of the public API.
 */
package io.vitals.internal.metric;
