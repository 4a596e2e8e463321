package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.number;
import static io.vitals.internal.report.json.JsonValues.object;
import static io.vitals.internal.report.json.JsonValues.objects;
import static io.vitals.internal.report.json.JsonValues.strings;
import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.HistoryContext;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.stats.Bootstrap;
import io.vitals.internal.regression.stats.Evidence;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import org.apiguardian.api.API;

/**
 * The baseline verdict of an index entry as data ({@code baseline.findings}, {@code baseline.newContainers}), next
 * to its sentences, so that merging report directories keeps every verdict as its shard decided it.
 */
@API(status = INTERNAL, since = "0.1")
public final class IndexFindings {

    private IndexFindings() {
    }

    static void write(JsonGenerator json, RegressionVerdict verdict) throws IOException {
        json.writeStringField("testKey", verdict.testKey());
        json.writeBooleanField("failsTest", verdict.failsTest());
        json.writeBooleanField("multipleContainers", verdict.multipleContainers());
        strings(json, "newContainers", verdict.newContainers());
        objects(json, "findings", verdict.findings(), IndexFindings::writeFinding);
        if (verdict.history().isPresent()) {
            writeHistory(json, verdict.history().get());
        }
    }

    private static void writeFinding(JsonGenerator json, RegressionFinding f) throws IOException {
        json.writeStringField("container", f.container());
        json.writeStringField("phase", f.phase().orElse(""));
        json.writeStringField("metric", f.metric().key());
        json.writeStringField("kind", f.kind().name());
        json.writeNumberField("baseline", f.baseline());
        json.writeNumberField("now", f.now());
        json.writeNumberField("changePercent", f.changePercent());
        json.writeNumberField("tolerancePercent", f.tolerancePercent());
        json.writeNumberField("runs", f.runs());
        object(json, "evidence", f.evidence(), IndexFindings::writeEvidence);
    }

    private static void writeEvidence(JsonGenerator json, Evidence e) throws IOException {
        json.writeStringField("rule", e.rule().name());
        json.writeNumberField("newRuns", e.newRuns());
        json.writeNumberField("historyRuns", e.historyRuns());
        json.writeNumberField("newMedian", e.newMedian());
        json.writeNumberField("historyMedian", e.historyMedian());
        json.writeNumberField("effectPercent", e.effectPercent());
        if (e.interval().isPresent()) {
            json.writeArrayFieldStart("intervalPercent");
            json.writeNumber(e.interval().get().low());
            json.writeNumber(e.interval().get().high());
            json.writeEndArray();
        } else {
            json.writeNullField("intervalPercent");
        }
        number(json, "p", e.p());
        json.writeBooleanField("exact", e.exact());
        number(json, "robustZ", e.robustZ());
        json.writeBooleanField("significant", e.significant());
    }

    /** The run history's context: testbed, notes, and each moved figure's trend with its step. */
    private static void writeHistory(JsonGenerator json, HistoryContext history) throws IOException {
        json.writeObjectFieldStart("history");
        json.writeStringField("testbed", history.testbed());
        json.writeNumberField("builds", history.builds());
        strings(json, "notes", history.notes());
        objects(json, "trends", history.trends(), IndexFindings::writeTrend);
        json.writeEndObject();
    }

    private static void writeTrend(JsonGenerator json, HistoryContext.Trend trend) throws IOException {
        json.writeStringField("container", trend.container());
        json.writeStringField("phase", trend.phase());
        json.writeStringField("metric", trend.metric());
        objects(json, "points", trend.points(), (generator, point) -> {
            generator.writeStringField("build", point.build());
            if (point.commit().isPresent()) {
                generator.writeStringField("commit", point.commit().get());
            }
            generator.writeStringField("at", point.at().toString());
            generator.writeNumberField("value", point.value());
        });
        if (trend.step().isPresent()) {
            HistoryContext.Step step = trend.step().get();
            json.writeObjectFieldStart("step");
            json.writeNumberField("index", step.index());
            json.writeStringField("build", step.build());
            json.writeNumberField("before", step.before());
            json.writeNumberField("after", step.after());
            json.writeNumberField("effectPercent", step.effectPercent());
            json.writeNumberField("p", step.p());
            json.writeEndObject();
        }
    }

    private static Optional<HistoryContext> readHistory(JsonNode history) {
        if (history == null || history.isNull() || history.isMissingNode()) {
            return Optional.empty();
        }
        List<String> notes = new ArrayList<>();
        history.path("notes").forEach(n -> notes.add(n.asText()));
        List<HistoryContext.Trend> trends = new ArrayList<>();
        for (JsonNode t : history.path("trends")) {
            List<HistoryContext.Point> points = new ArrayList<>();
            for (JsonNode p : t.path("points")) {
                points.add(new HistoryContext.Point(p.path("build").asText(),
                        p.hasNonNull("commit") ? Optional.of(p.get("commit").asText()) : Optional.empty(),
                        Instant.parse(p.path("at").asText()), p.path("value").asDouble()));
            }
            JsonNode s = t.get("step");
            Optional<HistoryContext.Step> step = s == null || s.isNull() ? Optional.empty()
                    : Optional.of(new HistoryContext.Step(s.path("index").asInt(), s.path("build").asText(),
                            s.path("before").asDouble(), s.path("after").asDouble(),
                            s.path("effectPercent").asDouble(), s.path("p").asDouble()));
            trends.add(new HistoryContext.Trend(t.path("container").asText(), t.path("phase").asText(),
                    t.path("metric").asText(), points, step));
        }
        return Optional.of(new HistoryContext(history.path("testbed").asText(), history.path("builds").asInt(),
                notes, trends));
    }

    /** The verdict of one index entry's {@code baseline} object. */
    public static RegressionVerdict read(JsonNode baseline) {
        List<String> newContainers = new ArrayList<>();
        baseline.path("newContainers").forEach(c -> newContainers.add(c.asText()));
        List<RegressionFinding> findings = new ArrayList<>();
        for (JsonNode f : baseline.path("findings")) {
            Metric metric = Metric.byKey(f.get("metric").asText()).orElseThrow(() -> new IllegalArgumentException(
                    "unknown metric " + f.get("metric")));
            JsonNode e = f.get("evidence");
            Optional<Evidence> evidence = Optional.empty();
            if (e != null && !e.isNull()) {
                JsonNode interval = e.get("intervalPercent");
                evidence = Optional.of(new Evidence(Evidence.Rule.valueOf(e.get("rule").asText()),
                        e.get("newRuns").asInt(), e.get("historyRuns").asInt(), e.get("newMedian").asDouble(),
                        e.get("historyMedian").asDouble(), e.get("effectPercent").asDouble(),
                        interval == null || interval.isNull() ? Optional.empty()
                                : Optional.of(new Bootstrap.Interval(interval.get(0).asDouble(),
                                        interval.get(1).asDouble())),
                        optional(e.get("p")), e.get("exact").asBoolean(), optional(e.get("robustZ")),
                        e.get("significant").asBoolean()));
            }
            String phase = f.get("phase").asText();
            findings.add(new RegressionFinding(f.get("container").asText(), metric,
                    RegressionFinding.Kind.valueOf(f.get("kind").asText()), f.get("baseline").asDouble(),
                    f.get("now").asDouble(), f.get("changePercent").asDouble(), f.get("tolerancePercent").asDouble(),
                    f.get("runs").asInt(), phase.isEmpty() ? Optional.empty() : Optional.of(phase), evidence));
        }
        return new RegressionVerdict(baseline.path("testKey").asText(), baseline.path("inBaseline").asBoolean(),
                newContainers, findings, baseline.path("runs").asInt(), baseline.path("failsTest").asBoolean(),
                baseline.path("multipleContainers").asBoolean(), Optional.empty(), readHistory(baseline.get("history")));
    }

    private static OptionalDouble optional(JsonNode value) {
        return value == null || value.isNull() ? OptionalDouble.empty() : OptionalDouble.of(value.asDouble());
    }
}
