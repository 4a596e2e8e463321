/**
 * Internal: the baseline file, its comparison and tolerances. Not part of the public API; may change without notice.
 */
package io.vitals.internal.regression.baseline;
