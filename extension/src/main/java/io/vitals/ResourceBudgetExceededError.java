package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A test broke one or more of its {@link ResourceBudget}s, or regressed against its baseline. The message lists
 * every breach: container, budget, figure, excess, when, the limit and how the figure was measured.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class ResourceBudgetExceededError extends AssertionError {

    private static final long serialVersionUID = 1L;

    /**
     * A test that used more than its budgets allow.
     *
     * @param message each budget exceeded, with the figure measured
     */
    public ResourceBudgetExceededError(String message) {
        super(message);
    }
}
