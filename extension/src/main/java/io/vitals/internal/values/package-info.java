/**
 * Internal: the state behind the value classes of {@code io.vitals} that are final classes with builders rather than
 * records (see {@link io.vitals.ResourceUsage}), kept in records here so that their equality and validation are
 * not written out field by field. Not part of the public API; may change without notice.
 */
package io.vitals.internal.values;
