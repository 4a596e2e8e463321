package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.regression.RegressionFinding;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * Writes the run index {@code vitals.json} ({@value #SCHEMA}): every test with its key figures and the path of its
 * own JSON, so tools can find a test without opening every file.
 */
@API(status = INTERNAL, since = "0.1")
public final class RunIndexWriter {

    public static final String SCHEMA = "vitals-run/1";

    private final JsonFactory factory;

    public RunIndexWriter(JsonFactory factory) {
        this.factory = factory;
    }

    public byte[] write(RunReport run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(run.tests().size() * 1024 + 1024);
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("schema", SCHEMA);
            json.writeStringField("generatedAt", run.generatedAt().toString());
            json.writeNumberField("testCount", run.tests().size());
            // which rows of docs/metrics.md's exactness table applied, so a CI reader knows how exact the figures are
            json.writeArrayFieldStart("hostShapes");
            for (HostShape.Row row : run.hostShapes()) {
                json.writeStartObject();
                json.writeStringField("id", row.id());
                json.writeStringField("label", row.label());
                json.writeEndObject();
            }
            json.writeEndArray();
            if (run.baseline().isPresent()) {
                RunReport.BaselineSummary b = run.baseline().get();
                json.writeObjectFieldStart("baseline");
                json.writeStringField("kind", b.history() ? "history" : "baseline");
                json.writeStringField("file", b.file());
                json.writeBooleanField("found", b.found());
                json.writeNumberField("keptRuns", b.keptRuns());
                json.writeNumberField("fewestRuns", b.fewestRuns());
                json.writeNumberField("mostRuns", b.mostRuns());
                json.writeBooleanField("updating", b.updating());
                json.writeStringField("mode", b.warnOnly() ? "warn" : "fail");
                json.writeArrayFieldStart("notRun");
                for (String key : b.notRun()) {
                    json.writeString(key);
                }
                json.writeEndArray();
                json.writeEndObject();
            } else {
                json.writeNullField("baseline");
            }
            json.writeArrayFieldStart("tests");
            for (RunReport.Entry entry : run.tests()) {
                writeEntry(json, entry, run.baseline().isPresent());
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to write the run index", e);
        }
        return out.toByteArray();
    }

    private static void writeEntry(JsonGenerator json, RunReport.Entry entry, boolean withBaseline)
            throws IOException {
        TestResult r = entry.result();
        json.writeStartObject();
        json.writeStringField("uniqueId", r.uniqueId());
        json.writeStringField("className", r.className());
        json.writeStringField("methodName", r.methodName());
        json.writeStringField("displayName", r.displayName());
        if (r.parameters().isPresent()) {
            json.writeStringField("parameters", r.parameters().get());
        } else {
            json.writeNullField("parameters");
        }
        json.writeStringField("outcome", r.outcome().name());
        // why a test failed, was aborted or skipped: for one that measured nothing, the only thing to say about it
        if (r.failureMessage().isPresent()) {
            json.writeStringField("failureMessage", r.failureMessage().get());
        } else {
            json.writeNullField("failureMessage");
        }
        json.writeNumberField("durationSeconds", Figures.seconds(r.duration()));
        json.writeStringField("json", entry.jsonPath());
        // only on a fixture's test: an ordinary run's index is as it was
        if (entry.expectedToFailBy().isPresent()) {
            json.writeStringField("expectedToFailBy", entry.expectedToFailBy().get());
        }
        json.writeArrayFieldStart("breaches");
        for (ContainerResult c : r.containers()) {
            for (BudgetResult b : c.budgets()) {
                if (!b.passed()) {
                    json.writeString(c.name() + ": " + b.breach());
                }
            }
        }
        json.writeEndArray();
        if (withBaseline) {
            writeVerdict(json, entry);
        } else {
            // no baseline configured: null, as at run level, rather than a verdict that reads "inBaseline: true"
            json.writeNullField("baseline");
        }
        json.writeArrayFieldStart("containers");
        for (ContainerResult c : r.containers()) {
            ResourceUsage u = c.usage();
            json.writeStartObject();
            json.writeStringField("name", c.name());
            json.writeStringField("image", c.image());
            json.writeStringField("hostShape", c.hostShape().id());
            MetricJson.writeFields(json, u);
            json.writeStringField("peakMemoryMethod", u.peak().method().name());
            if (u.memoryLimit().isPresent()) {
                json.writeNumberField("memoryLimitBytes", u.memoryLimit().get().toBytes());
            } else {
                json.writeNullField("memoryLimitBytes");
            }
            MetricJson.writeOomKills(json, u);
            json.writeNumberField("budgets", c.budgets().size());
            json.writeNumberField("breaches", c.budgets().stream().filter(b -> !b.passed()).count());
            OverlapJson.write(json, c.overlap());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeVerdict(JsonGenerator json, RunReport.Entry entry) throws IOException {
        json.writeObjectFieldStart("baseline");
        json.writeBooleanField("inBaseline", entry.verdict().inBaseline());
        json.writeNumberField("runs", entry.verdict().runs());
        json.writeArrayFieldStart("regressions");
        for (RegressionFinding f : entry.verdict().regressions()) {
            json.writeString(f.message());
        }
        json.writeEndArray();
        json.writeArrayFieldStart("improvements");
        for (RegressionFinding f : entry.verdict().improvements()) {
            json.writeString(f.message());
        }
        json.writeEndArray();
        IndexFindings.write(json, entry.verdict());
        json.writeEndObject();
    }
}
