/**
 * Internal: the self-contained HTML report. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.html;
