package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.seconds;

import io.vitals.ResourceUsage;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.source.SourceKinds;

import java.io.IOException;
import java.time.Duration;

import com.fasterxml.jackson.core.JsonGenerator;

/** A {@code usage} object, of the whole test or of one of its {@code phases}. */
final class UsageJson {

    private UsageJson() {
    }

    /** The test's usage, with its lanes. */
    static void writeTest(JsonGenerator json, ResourceUsage usage) throws IOException {
        write(json, usage, true);
    }

    /** {@code "phases": [{"name": …, "startSeconds": …, "usage": {…}}, …]}. */
    static void writePhases(JsonGenerator json, ResourceUsage usage) throws IOException {
        json.writeArrayFieldStart("phases");
        for (ResourceUsage.Phase phase : usage.phases()) {
            json.writeStartObject();
            json.writeStringField("name", phase.name());
            seconds(json, "startSeconds", phase.start());
            json.writeFieldName("usage");
            write(json, phase.usage(), false);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    // Every figure first, from the metric entries; then the details behind them (how the peak was measured, the
    // split of CPU time, counts of events, pressure), which no budget is set on.
    // A phase's lanes are the test's, cut: only the test's usage keeps them.
    private static void write(JsonGenerator json, ResourceUsage u, boolean lanes) throws IOException {
        json.writeStartObject();
        MetricJson.writeFields(json, u);
        if (lanes) {
            writeLanes(json, u);
        }
        json.writeObjectFieldStart("peakMemory");
        json.writeNumberField("bytes", u.peak().value().toBytes());
        seconds(json, "atSeconds", u.peak().at());
        json.writeStringField("method", u.peak().method().name());
        json.writeStringField("description", u.peak().describeMethod());
        seconds(json, "samplingIntervalSeconds", u.peak().samplingInterval());
        json.writeEndObject();
        bytes(json, "peakMemoryHighWaterMarkBytes", u.peakMemoryHighWaterMark());
        bytes(json, "memoryLimitBytes", u.memoryLimit());
        seconds(json, "cpuUserSeconds", u.cpuUserTime());
        seconds(json, "cpuSystemSeconds", u.cpuSystemTime());
        json.writeNumberField("peakCpuPercent", u.peakCpuPercent().value());
        json.writeNumberField("throttledPeriods", u.throttledPeriods());
        MetricJson.writeOomKills(json, u);
        json.writeNumberField("memoryLimitHits", u.memoryLimitHits());
        SnapshotJson.writePressure(json, u.pressureStallCpu(), u.pressureStallMemory(), u.pressureStallIo());
        json.writeEndObject();
    }

    private static void writeLanes(JsonGenerator json, ResourceUsage u) throws IOException {
        json.writeArrayFieldStart("lanes");
        for (Lane lane : SourceKinds.lanes(u)) {
            json.writeStartObject();
            json.writeStringField("key", lane.key());
            json.writeStringField("title", lane.title());
            json.writeStringField("unit", lane.unit().name());
            json.writeArrayFieldStart("budgetAttributes");
            for (String attribute : lane.budgetAttributes()) {
                json.writeString(attribute);
            }
            json.writeEndArray();
            long[] offsets = lane.offsets().stream().mapToLong(Duration::toMillis).toArray();
            json.writeFieldName("offsetMs");
            json.writeArray(offsets, 0, offsets.length);
            json.writeArrayFieldStart("series");
            for (Lane.Series series : lane.series()) {
                json.writeStartObject();
                json.writeStringField("key", series.key());
                json.writeStringField("label", series.label());
                json.writeArrayFieldStart("values");
                for (double value : series.values()) {
                    if (Double.isNaN(value)) {
                        json.writeNull();
                    } else {
                        json.writeNumber(value);
                    }
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
