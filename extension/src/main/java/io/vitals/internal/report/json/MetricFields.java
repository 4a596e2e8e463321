package io.vitals.internal.report.json;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.metric.Unit;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.probe.SavedFigures;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The per-figure fields of one {@code usage} object as {@link MetricJson} wrote them, read back by descriptor: the
 * field names come from {@link Metric#jsonField()}, so the reader cannot drift from the writer.
 */
final class MetricFields implements SavedFigures {

    private final JsonNode usage;

    MetricFields(JsonNode usage) {
        this.usage = usage;
    }

    /** The figure in its base unit; empty where it is null (not known) or absent (a file from before the figure). */
    @Override
    public OptionalDouble value(String field) {
        JsonNode node = usage.get(field);
        return node == null || node.isNull() ? OptionalDouble.empty() : OptionalDouble.of(node.asDouble());
    }

    /** Why the host could not measure the figure, as {@link MetricJson} wrote it next to the null; empty if not. */
    @Override
    public Optional<String> unavailableReason(String field) {
        JsonNode node = usage.get(MetricJson.unavailableField(field));
        return node == null || node.isNull() ? Optional.empty() : Optional.of(node.asText());
    }

    /** The lane {@link TestJsonWriter} saved under {@code key}; empty in a file from before lanes, or without it. */
    @Override
    public Optional<Lane> lane(String key) {
        JsonNode lanes = usage.get("lanes");
        if (lanes == null) {
            return Optional.empty();
        }
        for (JsonNode lane : lanes) {
            if (lane.get("key").asText().equals(key)) {
                List<Duration> offsets = new ArrayList<>();
                lane.get("offsetMs").forEach(o -> offsets.add(Duration.ofMillis(o.asLong())));
                List<String> budgets = new ArrayList<>();
                lane.get("budgetAttributes").forEach(b -> budgets.add(b.asText()));
                List<Lane.Series> series = new ArrayList<>();
                for (JsonNode s : lane.get("series")) {
                    List<Double> values = new ArrayList<>();
                    s.get("values").forEach(v -> values.add(v.isNull() ? Double.NaN : v.asDouble()));
                    series.add(new Lane.Series(s.get("key").asText(), s.get("label").asText(), values));
                }
                return Optional.of(new Lane(key, lane.get("title").asText(), Unit.valueOf(lane.get("unit").asText()),
                        budgets, offsets, series));
            }
        }
        return Optional.empty();
    }

    /**
     * The sourced figures as the writer saved them: each value, or the reason it was null; a file from before a
     * figure existed says so rather than reading as 0.
     */
    SourcedFigures sourced() {
        SourcedFigures.Builder figures = SourcedFigures.builder();
        for (Metric metric : Metric.sourced()) {
            OptionalDouble saved = value(metric.jsonField());
            if (saved.isPresent()) {
                figures.set(metric, saved.getAsDouble());
            } else {
                figures.unavailable(metric, unavailableReason(metric.jsonField()).orElse(usage.has(metric.jsonField())
                        ? "not known" : "not in this report file, written before Vitals reported it"));
            }
        }
        SourcedFigures read = figures.build();
        JsonNode at = usage.get(MetricJson.AT_PEAK_FIELD);
        return at == null ? read : read.withAtPeak(new SourcedFigures.AtPeak(
                Duration.ofNanos(Math.round(at.get("atSeconds").asDouble() * 1e9)), at.get("workingSetBytes").asLong()));
    }

    /** A size or count figure every usage has, as the whole number the writer printed. */
    long whole(Metric metric) {
        return required(metric).asLong();
    }

    DataSize size(Metric metric) {
        return DataSize.ofBytes(whole(metric));
    }

    Percentage percent(Metric metric) {
        return Percentage.of(required(metric).asDouble());
    }

    // The writer prints nanoseconds / 1e9; rounding back recovers the nanoseconds for any test shorter than 104 days.
    Duration duration(Metric metric) {
        return Duration.ofNanos(Math.round(required(metric).asDouble() * 1e9));
    }

    // A figure the host did not measure was saved as null beside its reason (MetricJson): it reads back as 0, which
    // ReportedFigure, judging the same probe by the same rule, again reports as absent.
    private JsonNode required(Metric metric) {
        JsonNode node = usage.get(metric.jsonField());
        if (node != null && node.isNull() && unavailableReason(metric.jsonField()).isPresent()) {
            return com.fasterxml.jackson.databind.node.LongNode.valueOf(0);
        }
        if (node == null || node.isNull()) {
            throw new IllegalArgumentException("\"" + metric.jsonField() + "\" is missing");
        }
        return node;
    }
}
