/**
 * Internal: the registry of further reading sources (GPU), the one place a new source is listed. Not part of the
 * public API; may change without notice.
 */
package io.vitals.internal.source;
