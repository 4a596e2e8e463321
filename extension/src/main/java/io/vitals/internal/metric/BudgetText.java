package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * A budget value as a person writes it in an annotation ({@code "330MiB"}, {@code "850ms"}) and the same value in
 * the unit's base unit.
 *
 * @param text the value as written, accepted by {@link Unit#parse}
 * @param value the value in the base unit (bytes, seconds, percent, a count, bytes per second, joules)
 */
@API(status = INTERNAL, since = "0.1")
public record BudgetText(String text, double value) {
}
