/**
 * Internal: the per-test JSON (vitals-test/1), the run index (vitals-run/1) and the suggested budgets' JSON
 * (vitals-suggested-budgets/1). Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.json;
