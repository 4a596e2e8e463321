/**
 * Internal: the run-wide report model ({@link io.vitals.internal.report.model.RunReport}) that the report writers
 * read and the session in {@code io.vitals.internal.report} builds; below both, so that the writers need nothing of
 * the package that calls them. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.model;
