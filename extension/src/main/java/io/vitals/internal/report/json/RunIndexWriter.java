package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.document;
import static io.vitals.internal.report.json.JsonValues.object;
import static io.vitals.internal.report.json.JsonValues.objects;
import static io.vitals.internal.report.json.JsonValues.seconds;
import static io.vitals.internal.report.json.JsonValues.strings;
import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.regression.RegressionFinding;

import java.io.IOException;
import java.util.List;

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
        return document(factory, run.tests().size() * 1024 + 1024, SCHEMA, json -> {
            json.writeStringField("generatedAt", run.generatedAt().toString());
            json.writeNumberField("testCount", run.tests().size());
            // which rows of docs/metrics.md's exactness table applied, so a CI reader knows how exact the figures are
            objects(json, "hostShapes", run.hostShapes(), (generator, row) -> {
                generator.writeStringField("id", row.id());
                generator.writeStringField("label", row.label());
            });
            object(json, "baseline", run.baseline(), RunIndexWriter::writeBaseline);
            boolean withBaseline = run.baseline().isPresent();
            objects(json, "tests", run.tests(), (generator, entry) -> writeEntry(generator, entry, withBaseline));
        }, "the run index");
    }

    private static void writeBaseline(JsonGenerator json, RunReport.BaselineSummary b) throws IOException {
        json.writeStringField("kind", b.history() ? "history" : "baseline");
        json.writeStringField("file", b.file());
        json.writeBooleanField("found", b.found());
        json.writeNumberField("keptRuns", b.keptRuns());
        json.writeNumberField("fewestRuns", b.fewestRuns());
        json.writeNumberField("mostRuns", b.mostRuns());
        json.writeBooleanField("updating", b.updating());
        json.writeStringField("mode", b.warnOnly() ? "warn" : "fail");
        strings(json, "notRun", b.notRun());
    }

    private static void writeEntry(JsonGenerator json, RunReport.Entry entry, boolean withBaseline)
            throws IOException {
        TestResult r = entry.result();
        TestJsonWriter.writeIdentity(json, r);
        seconds(json, "durationSeconds", r.duration());
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
        objects(json, "containers", r.containers(), RunIndexWriter::writeContainer);
    }

    private static void writeContainer(JsonGenerator json, ContainerResult c) throws IOException {
        ResourceUsage u = c.usage();
        json.writeStringField("name", c.name());
        json.writeStringField("image", c.image());
        json.writeStringField("hostShape", c.hostShape().id());
        MetricJson.writeFields(json, u);
        json.writeStringField("peakMemoryMethod", u.peak().method().name());
        bytes(json, "memoryLimitBytes", u.memoryLimit());
        MetricJson.writeOomKills(json, u);
        json.writeNumberField("budgets", c.budgets().size());
        json.writeNumberField("breaches", c.budgets().stream().filter(b -> !b.passed()).count());
        OverlapJson.write(json, c.overlap());
    }

    private static void writeVerdict(JsonGenerator json, RunReport.Entry entry) throws IOException {
        json.writeObjectFieldStart("baseline");
        json.writeBooleanField("inBaseline", entry.verdict().inBaseline());
        json.writeNumberField("runs", entry.verdict().runs());
        strings(json, "regressions", messages(entry.verdict().regressions()));
        strings(json, "improvements", messages(entry.verdict().improvements()));
        IndexFindings.write(json, entry.verdict());
        json.writeEndObject();
    }

    private static List<String> messages(List<RegressionFinding> findings) {
        return findings.stream().map(RegressionFinding::message).toList();
    }
}
