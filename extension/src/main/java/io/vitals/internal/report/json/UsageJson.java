package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.array;
import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.objects;
import static io.vitals.internal.report.json.JsonValues.seconds;
import static io.vitals.internal.report.json.JsonValues.strings;

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
        objects(json, "phases", usage.phases(), (generator, phase) -> {
            generator.writeStringField("name", phase.name());
            seconds(generator, "startSeconds", phase.start());
            generator.writeFieldName("usage");
            write(generator, phase.usage(), false);
        });
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
        objects(json, "lanes", SourceKinds.lanes(u), UsageJson::writeLane);
    }

    private static void writeLane(JsonGenerator json, Lane lane) throws IOException {
        json.writeStringField("key", lane.key());
        json.writeStringField("title", lane.title());
        json.writeStringField("unit", lane.unit().name());
        strings(json, "budgetAttributes", lane.budgetAttributes());
        long[] offsets = lane.offsets().stream().mapToLong(Duration::toMillis).toArray();
        json.writeFieldName("offsetMs");
        json.writeArray(offsets, 0, offsets.length);
        objects(json, "series", lane.series(), (generator, series) -> {
            generator.writeStringField("key", series.key());
            generator.writeStringField("label", series.label());
            // NaN where that sample had none: JSON has no NaN, so null
            array(generator, "values", series.values(), (values, value) -> {
                if (Double.isNaN(value)) {
                    values.writeNull();
                } else {
                    values.writeNumber(value);
                }
            });
        });
    }
}
