package io.vitals.internal.regression.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * A budget for one metric, proposed from measured runs.
 *
 * @param test the test's identity (see {@code TestIdentity})
 * @param container the container
 * @param phase the phase; empty for the whole test
 * @param attribute the {@code @ResourceBudget} attribute, e.g. {@code cpuTime}
 * @param value the budget as {@code @ResourceBudget} reads it, e.g. {@code "16s"}
 * @param baseValue the budget in the metric's base unit (bytes, seconds, percent, count)
 * @param basis what it promises and how it was derived, e.g. "expected to hold in 99 % of unchanged builds on
 *     testbed tb-3f9a0c1d, from 12 builds (highest 14.2 s, bound 15.1 s), rounded up"
 * @param runs how many builds it rests on
 * @param testbed the testbed whose builds it comes from; it holds there
 */
@API(status = INTERNAL, since = "0.1")
public record BudgetSuggestion(String test, String container, String phase, String attribute, String value,
        double baseValue, String basis, int runs, String testbed) {

    public BudgetSuggestion {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(testbed, "testbed");
    }

    /**
     * The annotation line for one container (and phase) of a test, e.g.
     * {@code @ResourceBudget(container = "tf", cpuTime = "16s", peakMemory = "320MiB")}; every suggestion must belong
     * to the same test, container and phase.
     */
    public static String annotation(List<BudgetSuggestion> suggestions) {
        BudgetSuggestion first = suggestions.get(0);
        StringBuilder out = new StringBuilder("@ResourceBudget(container = \"").append(escape(first.container()))
                .append('"');
        if (!first.phase().isEmpty()) {
            out.append(", phase = \"").append(escape(first.phase())).append('"');
        }
        for (BudgetSuggestion s : suggestions) {
            out.append(", ").append(s.attribute()).append(" = \"").append(s.value()).append('"');
        }
        return out.append(')').toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
