package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.stats.Bootstrap;
import io.vitals.internal.regression.stats.Evidence;

import java.io.IOException;
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
        json.writeArrayFieldStart("newContainers");
        for (String container : verdict.newContainers()) {
            json.writeString(container);
        }
        json.writeEndArray();
        json.writeArrayFieldStart("findings");
        for (RegressionFinding f : verdict.findings()) {
            json.writeStartObject();
            json.writeStringField("container", f.container());
            json.writeStringField("phase", f.phase().orElse(""));
            json.writeStringField("metric", f.metric().key());
            json.writeStringField("kind", f.kind().name());
            json.writeNumberField("baseline", f.baseline());
            json.writeNumberField("now", f.now());
            json.writeNumberField("changePercent", f.changePercent());
            json.writeNumberField("tolerancePercent", f.tolerancePercent());
            json.writeNumberField("runs", f.runs());
            if (f.evidence().isPresent()) {
                Evidence e = f.evidence().get();
                json.writeObjectFieldStart("evidence");
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
                optional(json, "p", e.p());
                json.writeBooleanField("exact", e.exact());
                optional(json, "robustZ", e.robustZ());
                json.writeBooleanField("significant", e.significant());
                json.writeEndObject();
            } else {
                json.writeNullField("evidence");
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void optional(JsonGenerator json, String name, OptionalDouble value) throws IOException {
        if (value.isPresent()) {
            json.writeNumberField(name, value.getAsDouble());
        } else {
            json.writeNullField(name);
        }
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
                baseline.path("multipleContainers").asBoolean());
    }

    private static OptionalDouble optional(JsonNode value) {
        return value == null || value.isNull() ? OptionalDouble.empty() : OptionalDouble.of(value.asDouble());
    }
}
