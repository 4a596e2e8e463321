package io.vitals.internal.regression.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.HistorySession;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

/**
 * Budgets suggested from a run's history: for one test as it ends, or for every test of a history. The history
 * package only hands over builds; suggesting from them lives here, so that the dependency runs one way.
 */
@API(status = INTERNAL, since = "0.2")
public final class HistorySuggestions {

    private HistorySuggestions() {
    }

    /** Suggested budgets for the test of {@code result}: its history, this run so far and {@code result}. */
    public static List<BudgetSuggestion> suggestionsFor(HistorySession session, TestResult result) {
        return suggest(inputs(session, result));
    }

    /**
     * What {@link #suggestionsFor} judges, taken now: per figure of {@code result}, the builds of its testbed in the
     * history with this build added (see {@link HistorySession#runsWith}). A copy, so that {@link #suggest} can run
     * later and elsewhere (the report thread) with the same outcome while the run goes on.
     */
    public static Map<HistoryKey, BudgetSuggester.Builds> inputs(HistorySession session, TestResult result) {
        Map<HistoryKey, BudgetSuggester.Builds> inputs = new TreeMap<>();
        session.runsWith(result, (key, testbed, runs) -> inputs.put(key, BudgetSuggester.Builds.of(testbed, runs)));
        return inputs;
    }

    /** The suggested budgets for {@code inputs} from {@link #inputs}. */
    public static List<BudgetSuggestion> suggest(Map<HistoryKey, BudgetSuggester.Builds> inputs) {
        return new BudgetSuggester().suggest(inputs);
    }

    /**
     * Suggested budgets for every test of {@code all}, a session's {@link HistorySession#withThisRun()}: each figure
     * from the builds of the testbed its latest build ran on.
     */
    public static List<BudgetSuggestion> suggestions(History all) {
        // straight from the history, in its key order: copying 10^5 keys into a map first cost more than judging
        BudgetSuggester suggester = new BudgetSuggester();
        List<BudgetSuggestion> suggestions = new ArrayList<>();
        all.runs().forEach((key, runs) -> {
            String testbed = runs.get(runs.size() - 1).testbed();
            suggestions.addAll(suggester.suggestAll(key, BudgetSuggester.Builds.of(all.testbed(testbed),
                    runs.stream().filter(run -> run.testbed().equals(testbed)).toList())));
        });
        return suggestions;
    }
}
