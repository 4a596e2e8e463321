/**
 * Internal: the per-test result model and the report writers (JSON, HTML, Markdown, Prometheus, console) and
 * baseline comparison. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report;
