/**
 * Internal: the regression analysis that decides whether a test's usage moved against its baseline or its run
 * history, and the verdict the extension fails a test with. Reads the result model; knows nothing of the report
 * writers. Not part of the public API; may change without notice.
 */
package io.vitals.internal.regression;
