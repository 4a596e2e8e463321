package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter.HistoryNote;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * Writes {@value SuggestedBudgetsWriter#JSON_FILE} ({@value #SCHEMA}, for tools): how the history was configured, so
 * that a merge of report directories can say the same, then per test its annotation lines and the budgets behind
 * them. The per-test JSON's {@code suggestedBudgets} writes its annotations and budgets here too, so that both files
 * give a budget one shape.
 */
@API(status = INTERNAL, since = "0.1")
public final class SuggestedBudgetsJson {

    public static final String SCHEMA = "vitals-suggested-budgets/1";

    private SuggestedBudgetsJson() {
    }

    /** The content of {@value SuggestedBudgetsWriter#JSON_FILE}. */
    public static byte[] write(JsonFactory factory, HistoryNote note, List<BudgetSuggestion> suggestions) {
        return JsonValues.document(factory, 4 * 1024, SCHEMA, json -> {
            json.writeObjectFieldStart("history");
            history(json, note);
            json.writeEndObject();
            JsonValues.objects(json, "tests", BudgetSuggestion.perTest(suggestions).entrySet(),
                    SuggestedBudgetsJson::test);
        }, "the suggested budgets");
    }

    private static void history(JsonGenerator json, HistoryNote note) throws IOException {
        JsonValues.string(json, "file", note.file());
        json.writeNumberField("keep", note.keep());
        json.writeNumberField("alpha", note.alpha());
        JsonValues.string(json, "problem", note.problem());
    }

    private static void test(JsonGenerator json, Map.Entry<String, List<List<BudgetSuggestion>>> test)
            throws IOException {
        json.writeStringField("test", test.getKey());
        annotations(json, test.getValue());
        JsonValues.objects(json, "budgets", test.getValue().stream().flatMap(List::stream).toList(),
                SuggestedBudgetsJson::budget);
    }

    /** {@code "annotations"}: the {@code @ResourceBudget} line of each {@link BudgetSuggestion#perAnnotation} list. */
    static void annotations(JsonGenerator json, List<List<BudgetSuggestion>> perAnnotation) throws IOException {
        JsonValues.array(json, "annotations", perAnnotation,
                (generator, target) -> generator.writeString(BudgetSuggestion.annotation(target)));
    }

    /** The fields of one suggestion, as an element of a {@code "budgets"} array. */
    static void budget(JsonGenerator json, BudgetSuggestion s) throws IOException {
        json.writeStringField("container", s.container());
        json.writeStringField("phase", s.phase());
        json.writeStringField("attribute", s.attribute());
        json.writeStringField("value", s.value());
        json.writeNumberField("baseValue", s.baseValue());
        json.writeStringField("basis", s.basis());
        json.writeStringField("testbed", s.testbed());
        json.writeNumberField("runs", s.runs());
    }
}
