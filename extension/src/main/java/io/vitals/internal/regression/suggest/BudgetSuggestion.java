package io.vitals.internal.regression.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

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

    /**
     * The suggestions of one test as annotation lines: one list per container and phase, in the order each first
     * appears, its suggestions in the order given; each list is what {@link #annotation} takes.
     */
    public static List<List<BudgetSuggestion>> perAnnotation(List<BudgetSuggestion> suggestions) {
        // the two names joined by NUL, which neither holds in practice, so that two targets never share a key
        return List.copyOf(grouped(suggestions, s -> s.container() + "\u0000" + s.phase()).values());
    }

    /** The suggestions per test, in the order each test first appears, each test's as {@link #perAnnotation}. */
    public static Map<String, List<List<BudgetSuggestion>>> perTest(List<BudgetSuggestion> suggestions) {
        Map<String, List<List<BudgetSuggestion>>> perTest = new LinkedHashMap<>();
        grouped(suggestions, BudgetSuggestion::test).forEach((test, list) -> perTest.put(test, perAnnotation(list)));
        return perTest;
    }

    private static <K> Map<K, List<BudgetSuggestion>> grouped(List<BudgetSuggestion> suggestions,
            Function<BudgetSuggestion, K> key) {
        Map<K, List<BudgetSuggestion>> groups = new LinkedHashMap<>();
        for (BudgetSuggestion s : suggestions) {
            groups.computeIfAbsent(key.apply(s), k -> new ArrayList<>()).add(s);
        }
        return groups;
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
