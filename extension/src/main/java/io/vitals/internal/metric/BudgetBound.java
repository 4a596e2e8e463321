package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The largest budget that makes sense for a figure, e.g. 100 % for a share of the memory limit.
 *
 * @param max the largest value, in the base unit
 * @param noun what the message calls the value, e.g. "headroom"
 * @param reason why, e.g. "a share of the memory limit cannot exceed 100%"
 */
@API(status = INTERNAL, since = "0.1")
public record BudgetBound(double max, String noun, String reason) {
}
