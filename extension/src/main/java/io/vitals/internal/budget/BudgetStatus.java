package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** How a budget came out against its figure. */
@API(status = INTERNAL, since = "0.1")
public enum BudgetStatus {

    /** The figure keeps to the budget. */
    OK,
    /**
     * The figure breaks the budget, or could not be checked against it (a headroom budget on a container without a
     * memory limit, a phase the test never marked): either way the budget fails the test.
     */
    BREACHED,
    /**
     * This host cannot measure the figure at all ({@link Measurability}): the budget passes with that mark, or
     * fails under {@code vitals.strict=true}.
     */
    NOT_MEASURABLE
}
