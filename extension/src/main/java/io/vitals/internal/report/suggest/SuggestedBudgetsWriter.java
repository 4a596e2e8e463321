package io.vitals.internal.report.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.regression.history.HistorySettings;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Writes the suggested budgets: {@value #MARKDOWN_FILE} (one copy-pasteable {@code @ResourceBudget} line per test,
 * container and phase, with the basis of each figure) and the summary's "Run history" section. {@value #JSON_FILE},
 * for tools, is written by {@code SuggestedBudgetsJson}.
 */
@API(status = INTERNAL, since = "0.1")
public final class SuggestedBudgetsWriter {

    public static final String MARKDOWN_FILE = "suggested-budgets.md";
    public static final String JSON_FILE = "suggested-budgets.json";

    private SuggestedBudgetsWriter() {
    }

    /**
     * How the history was used, for the summary.
     *
     * @param file the history file, if one was configured
     * @param keep how many runs it keeps per key
     * @param alpha the significance level
     * @param problem why it could not be read, if it could not
     */
    public record HistoryNote(Optional<String> file, int keep, double alpha, Optional<String> problem) {

        public static HistoryNote of(HistorySettings settings, Optional<String> problem) {
            return new HistoryNote(settings.file().map(Object::toString), settings.keep(), settings.alpha(), problem);
        }
    }

    /** The summary's section; empty without a history and without suggestions. */
    public static String summarySection(HistoryNote note, List<BudgetSuggestion> suggestions) {
        if (note.file().isEmpty() && suggestions.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("## Run history\n\n");
        if (note.problem().isPresent()) {
            out.append(":warning: ").append(note.problem().get()).append(". Nothing was compared, and the file was ")
                    .append("not updated.\n\n");
        } else if (note.file().isPresent()) {
            out.append("Compared with `").append(note.file().get()).append("` (up to ").append(note.keep())
                    .append(" builds per test, container, phase, metric and testbed). Each figure of this build (the ")
                    .append("median of its repetitions) is judged against the earlier builds of the same testbed only, ")
                    .append("from 5 of them on: it counts as changed outside their 99.9 % prediction interval, or when ")
                    .append("it and the two builds before it all lie outside the 95 % one, and by more than the ")
                    .append("metric's tolerance. Steps are named by a change-point analysis (α = ")
                    .append(String.format(Locale.ROOT, "%s", note.alpha())).append(").\n\n");
        }
        out.append(suggestionsSection(suggestions));
        return out.toString();
    }

    public static String summarySection(HistorySettings settings, Optional<String> problem,
            List<BudgetSuggestion> suggestions) {
        return summarySection(HistoryNote.of(settings, problem), suggestions);
    }

    /** The content of {@value #MARKDOWN_FILE}. */
    public static String markdown(List<BudgetSuggestion> suggestions) {
        return "# Vitals: suggested budgets\n\n" + suggestionsSection(suggestions);
    }

    private static String suggestionsSection(List<BudgetSuggestion> suggestions) {
        StringBuilder out = new StringBuilder("### Suggested budgets\n\n");
        if (suggestions.isEmpty()) {
            return out.append("None yet: a budget is suggested once the history holds ").append(
                    BudgetSuggester.MIN_BUILDS).append(" builds of a test on one testbed.\n\n").toString();
        }
        out.append("Each figure is the ").append(BudgetSuggester.COVERAGE_PERCENT).append(" % prediction bound ")
                .append("of the next build on the testbed, from that testbed's builds (a build's figure is the ")
                .append("median of its repetitions), rounded up: expected to hold in ")
                .append(BudgetSuggester.COVERAGE_PERCENT).append(" % of unchanged builds there. Copy a line onto ")
                .append("the test method.\n\n");
        BudgetSuggestion.perTest(suggestions).forEach((test, targets) -> {
            out.append("`").append(test.replace('`', '\'')).append("`\n\n```java\n");
            targets.forEach(list -> out.append(BudgetSuggestion.annotation(list)).append('\n'));
            out.append("```\n\n");
            for (List<BudgetSuggestion> list : targets) {
                for (BudgetSuggestion s : list) {
                    out.append("- ").append(s.container()).append(s.phase().isEmpty() ? "" : " / " + s.phase())
                            .append(" `").append(s.attribute()).append(" = \"").append(s.value()).append("\"`: ")
                            .append(s.basis()).append('\n');
                }
            }
            out.append('\n');
        });
        return out.toString();
    }
}
