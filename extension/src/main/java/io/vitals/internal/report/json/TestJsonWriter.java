package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.result.TestResult;
import io.vitals.internal.regression.suggest.BudgetSuggestion;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * Writes one test as a {@value #SCHEMA} document (see {@code docs/report-format.md} and
 * {@code io/vitals/report/vitals-test-1.schema.json}).
 *
 * <p>Approach: a streaming generator rather than a tree, since a run may write a thousand of these. Every key is
 * always present, absent values are {@code null}, so consumers can rely on one shape. Durations are seconds
 * (doubles, nanosecond precision) except the timeline's offsets, which are whole milliseconds to keep the arrays
 * short; sizes are whole bytes ({@link JsonValues}). Each container is written by {@link ContainerJson}, with
 * {@link SnapshotJson}, {@link UsageJson} and {@link TimelineJson} for its parts.
 */
@API(status = INTERNAL, since = "0.1")
public final class TestJsonWriter {

    public static final String SCHEMA = "vitals-test/1";

    private final JsonFactory factory;

    public TestJsonWriter(JsonFactory factory) {
        this.factory = factory;
    }

    public byte[] write(TestResult result) {
        return write(result, List.of());
    }

    /** The test with the budgets suggested from its run history ({@code suggestedBudgets}, empty without one). */
    public byte[] write(TestResult result, List<BudgetSuggestion> suggestions) {
        return JsonValues.document(factory, 16 * 1024, SCHEMA, json -> {
            writeTest(json, result);
            JsonValues.array(json, "containers", result.containers(), ContainerJson::write);
            writeSuggestions(json, suggestions);
        }, "the JSON report of " + result.uniqueId());
    }

    private static void writeSuggestions(JsonGenerator json, List<BudgetSuggestion> suggestions) throws IOException {
        json.writeObjectFieldStart("suggestedBudgets");
        SuggestedBudgetsJson.annotations(json, BudgetSuggestion.perAnnotation(suggestions));
        JsonValues.objects(json, "budgets", suggestions, SuggestedBudgetsJson::budget);
        json.writeEndObject();
    }

    private static void writeTest(JsonGenerator json, TestResult result) throws IOException {
        json.writeObjectFieldStart("test");
        writeIdentity(json, result);
        json.writeStringField("startedAt", result.startedAt().toString());
        JsonValues.seconds(json, "durationSeconds", result.duration());
        json.writeBooleanField("breached", result.hasBreaches());
        json.writeEndObject();
    }

    /** Which test it was and how it ended: the fields the per-test JSON and the run index both start a test with. */
    static void writeIdentity(JsonGenerator json, TestResult result) throws IOException {
        json.writeStringField("uniqueId", result.uniqueId());
        json.writeStringField("className", result.className());
        json.writeStringField("methodName", result.methodName());
        json.writeStringField("displayName", result.displayName());
        JsonValues.string(json, "parameters", result.parameters());
        json.writeStringField("outcome", result.outcome().name());
        JsonValues.string(json, "failureMessage", result.failureMessage());
    }
}
