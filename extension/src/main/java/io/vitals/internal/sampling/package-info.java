/**
 * Internal: the sampler thread, per-test measurement windows and the arithmetic that turns raw readings into
 * usage. Not part of the public API; may change without notice.
 */
package io.vitals.internal.sampling;
