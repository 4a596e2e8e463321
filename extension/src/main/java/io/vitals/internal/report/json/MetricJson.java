package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.result.ReportedFigure;

import java.io.IOException;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * Writes every figure of a usage as a JSON field, walking the {@link Metric} entries: the run index, the per-test
 * {@code usage} and the console's JSON line all hold every figure, under one name each.
 */
@API(status = INTERNAL, since = "0.1")
public final class MetricJson {

    private MetricJson() {
    }

    /** One field per metric, named by {@link Metric#jsonField()}: {@code "peakMemoryBytes": 1234}. */
    public static void writeFields(JsonGenerator json, ResourceUsage usage) throws IOException {
        writeFields(json, usage, Metric::jsonField);
        writeAtPeak(json, usage);
    }

    /** The field that says where the peak's composition was read: {@value #AT_PEAK_FIELD}. */
    public static final String AT_PEAK_FIELD = "peakCompositionAt";

    /**
     * Where the at-peak figures (the peak's composition) were read, {@code {"atSeconds": 2.1, "workingSetBytes":
     * 1234}}; left out where none were.
     */
    private static void writeAtPeak(JsonGenerator json, ResourceUsage usage) throws IOException {
        if (SourcedFigures.of(usage).atPeak().isPresent()) {
            SourcedFigures.AtPeak at = SourcedFigures.of(usage).atPeak().get();
            json.writeObjectFieldStart(AT_PEAK_FIELD);
            json.writeNumberField("atSeconds", at.offset().toNanos() / 1e9);
            json.writeNumberField("workingSetBytes", at.workingSetBytes());
            json.writeEndObject();
        }
    }

    /**
     * One field per metric, named by {@code name}, in the base unit: whole numbers for bytes and counts, {@code null}
     * for a figure not known (JSON has no NaN) or not measured ({@link ReportedFigure}), followed by
     * {@code <name>Unavailable} with the reason where the host could not measure it
     * ({@code "peakGpuMemoryBytesUnavailable": "no GPU visible: …"}, {@code "blockWriteBytesUnavailable": …}).
     */
    public static void writeFields(JsonGenerator json, ResourceUsage usage, Function<Metric, String> name)
            throws IOException {
        for (Metric metric : Metric.all()) {
            ReportedFigure figure = ReportedFigure.of(metric, usage);
            String field = name.apply(metric);
            if (figure.value().isEmpty()) {
                json.writeNullField(field);
                // why it is null where the host is the reason (cgroup v1 block write, no GPU visible), so null
                // never reads as zero
                if (figure.notMeasured().isPresent()) {
                    json.writeStringField(unavailableField(field), figure.notMeasured().get());
                }
            } else if (metric.unit().isWhole()) {
                json.writeNumberField(field, Math.round(figure.value().getAsDouble()));
            } else {
                json.writeNumberField(field, figure.value().getAsDouble());
            }
        }
    }

    /**
     * The OOM kill count, or {@code null} with {@code oomKillsUnavailable} where the probe cannot count them (the
     * Engine API), so a missing count never reads as "none".
     */
    public static void writeOomKills(JsonGenerator json, ResourceUsage usage) throws IOException {
        ReportedFigure kills = ReportedFigure.oomKills(usage);
        if (kills.value().isPresent()) {
            json.writeNumberField("oomKills", Math.round(kills.value().getAsDouble()));
        } else {
            json.writeNullField("oomKills");
            json.writeStringField(unavailableField("oomKills"), kills.notMeasured().orElseThrow());
        }
    }

    /** The field that says why {@code field} is null where the host could not measure it: {@code <field>Unavailable}. */
    public static String unavailableField(String field) {
        return field + "Unavailable";
    }
}
