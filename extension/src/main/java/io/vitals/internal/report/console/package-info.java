/**
 * Internal: the docker-stats-style console table and JSON lines. Not part of the public API; may change without notice.
 */
package io.vitals.internal.report.console;
