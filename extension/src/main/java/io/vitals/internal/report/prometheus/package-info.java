/**
 * Internal: vitals.prom in the Prometheus text format. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.prometheus;
