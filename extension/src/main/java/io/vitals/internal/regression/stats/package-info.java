/**
 * Internal: the statistics behind baseline and history verdicts: prediction intervals, change points and Student's
 * t for builds; Mann–Whitney U, bootstrap intervals and robust z-scores for samples. Not part of the public API; may
 * change without notice.
 */
package io.vitals.internal.regression.stats;
