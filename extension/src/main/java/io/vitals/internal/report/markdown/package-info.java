/**
 * Internal: summary.md for CI job summaries and PR comments. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.markdown;
