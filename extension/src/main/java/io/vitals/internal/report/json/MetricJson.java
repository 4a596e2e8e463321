package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;

import java.io.IOException;
import java.util.Optional;
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
    }

    /**
     * One field per metric, named by {@code name}, in the base unit: whole numbers for bytes and counts, {@code null}
     * for a figure not known (JSON has no NaN), followed by {@code <name>Unavailable} with the reason where the host
     * could not measure it ({@code "peakGpuMemoryBytesUnavailable": "no GPU visible: …"}).
     */
    public static void writeFields(JsonGenerator json, ResourceUsage usage, Function<Metric, String> name)
            throws IOException {
        for (Metric metric : Metric.all()) {
            double value = metric.read(usage);
            String field = name.apply(metric);
            if (Double.isNaN(value)) {
                json.writeNullField(field);
                // why it is null where the host is the reason ("no GPU visible"), so null never reads as zero
                Optional<String> why = metric.unmeasurableReason(usage);
                if (why.isPresent()) {
                    json.writeStringField(unavailableField(field), why.get());
                }
            } else if (metric.unit().isWhole()) {
                json.writeNumberField(field, Math.round(value));
            } else {
                json.writeNumberField(field, value);
            }
        }
    }

    /** The field that says why {@code field} is null where the host could not measure it: {@code <field>Unavailable}. */
    public static String unavailableField(String field) {
        return field + "Unavailable";
    }
}
