/**
 * Internal: the per-test result model that the extension builds and every other part reads (test and container
 * results, faults, limits, overlaps, the figures shown and their exactness, the names a test has in reports).
 * Depends on neither the reports nor the regression analysis. Not part of the public API; may change without
 * notice.
 */
package io.vitals.internal.result;
