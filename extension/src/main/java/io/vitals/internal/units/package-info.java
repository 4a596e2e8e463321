/**
 * Internal: not part of the public API; may change without notice.
 *
 * <p>Parsing and formatting helpers shared by the unit value types in {@code io.vitals}.
 */
package io.vitals.internal.units;
