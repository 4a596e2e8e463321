package io.vitals.internal.report.console;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.json.MetricJson;
import io.vitals.internal.report.json.OverlapJson;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * One JSON object per test on a single line, for {@code vitals.console=json}: every figure (named by its metric key,
 * {@code null} when not known) in base units, and the tests whose windows overlapped ({@code overlappedWith}), so log
 * processors can pick them up without reading the report directory.
 */
@API(status = INTERNAL, since = "0.1")
public final class ConsoleJsonLine {

    private final JsonFactory factory;

    public ConsoleJsonLine(JsonFactory factory) {
        this.factory = factory;
    }

    public String render(RunReport.Entry entry) {
        TestResult result = entry.result();
        StringWriter out = new StringWriter();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("vitals", "test");
            json.writeStringField("className", result.className());
            json.writeStringField("methodName", result.methodName());
            json.writeStringField("displayName", result.displayName());
            json.writeStringField("outcome", result.outcome().name());
            if (result.failureMessage().isPresent()) {
                json.writeStringField("failureMessage", result.failureMessage().get());
            }
            json.writeStringField("json", entry.jsonPath());
            json.writeArrayFieldStart("containers");
            for (ContainerResult container : result.containers()) {
                json.writeStartObject();
                json.writeStringField("name", container.name());
                // the same mark as in the JSON files: figures that include other tests' usage say whose
                OverlapJson.write(json, container.overlap());
                MetricJson.writeFields(json, container.usage(), Metric::key);
                if (container.usage().memoryLimit().isPresent()) {
                    json.writeNumberField("memoryLimit", container.usage().memoryLimit().get().toBytes());
                }
                json.writeNumberField("budgets", container.budgets().size());
                json.writeNumberField("breaches", container.budgets().stream().filter(b -> !b.passed()).count());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("baseline");
            for (String line : entry.verdict().lines()) {
                json.writeString(line);
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
