package io.vitals.internal.report.console;

import io.vitals.internal.report.ContainerResult;
import io.vitals.internal.report.Metric;
import io.vitals.internal.report.RunReport;
import io.vitals.internal.report.TestResult;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * One JSON object per test on a single line, for {@code vitals.console=json}: key figures only, in base units, so
 * log processors can pick them up without reading the report directory.
 */
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
            json.writeStringField("json", entry.jsonPath());
            json.writeArrayFieldStart("containers");
            for (ContainerResult container : result.containers()) {
                json.writeStartObject();
                json.writeStringField("name", container.name());
                for (Metric metric : Metric.values()) {
                    json.writeNumberField(metric.key(), metric.valueOf(container.usage()));
                }
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
