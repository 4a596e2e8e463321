/**
 * Internal: the report writers (JSON, HTML, Markdown, Prometheus, console), the run-wide files and the session that
 * drives them. The result model they write is in {@code io.vitals.internal.result}, the baseline and history
 * comparison in {@code io.vitals.internal.regression}. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report;
