/**
 * Internal: the statistics behind baseline verdicts (Mann–Whitney U, bootstrap intervals, robust z-scores). Not part
 * of the public API; may change without notice.
 */
package io.vitals.internal.regression.stats;
