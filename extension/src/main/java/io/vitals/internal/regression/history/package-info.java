/**
 * Internal: the run history (the last K runs per test, container, phase and metric), its file, its merge and the
 * statistical comparison with it. Not part of the public API; may change without notice.
 */
package io.vitals.internal.regression.history;
