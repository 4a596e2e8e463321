package io.vitals.internal.report.json;

import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.result.Figures;

import java.io.IOException;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * A container's {@code timeline}: one array per figure rather than one object per point, with offsets in whole
 * milliseconds, to keep thousands of points short.
 */
final class TimelineJson {

    private TimelineJson() {
    }

    static void write(JsonGenerator json, Timeline timeline, UnmeasuredCounters absent) throws IOException {
        List<TimelinePoint> points = timeline.points();
        json.writeObjectFieldStart("timeline");
        json.writeNumberField("samples", timeline.samples());
        json.writeNumberField("readErrors", timeline.readErrors());
        json.writeBooleanField("compacted", timeline.isCompacted());
        longs(json, "offsetMs", points, p -> p.offset().toMillis());
        doubles(json, "cpuPercent", points, TimelinePoint::cpuPercent);
        longs(json, "memoryBytes", points, p -> p.memory().toBytes());
        longs(json, "pids", points, TimelinePoint::pids);
        doubles(json, "cpuSeconds", points, p -> Figures.seconds(p.cpuTime()));
        counters(json, "blockReadBytes", points, p -> p.blockRead().toBytes(), absent.blockRead());
        counters(json, "blockWriteBytes", points, p -> p.blockWrite().toBytes(), absent.blockWrite());
        longs(json, "netRxBytes", points, p -> p.networkReceived().toBytes());
        longs(json, "netTxBytes", points, p -> p.networkSent().toBytes());
        json.writeEndObject();
    }

    // Arrays on one line: the pretty printer would otherwise spend a line on each of thousands of numbers.
    private static void longs(JsonGenerator json, String name, List<TimelinePoint> points,
            ToLongFunction<TimelinePoint> value) throws IOException {
        long[] values = points.stream().mapToLong(value).toArray();
        json.writeFieldName(name);
        json.writeArray(values, 0, values.length);
    }

    /** A raw counter's array, or {@code null} where the host did not measure it ({@link UnmeasuredCounters}). */
    private static void counters(JsonGenerator json, String name, List<TimelinePoint> points,
            ToLongFunction<TimelinePoint> value, boolean absent) throws IOException {
        if (absent) {
            json.writeNullField(name);
        } else {
            longs(json, name, points, value);
        }
    }

    private static void doubles(JsonGenerator json, String name, List<TimelinePoint> points,
            ToDoubleFunction<TimelinePoint> value) throws IOException {
        double[] values = points.stream().mapToDouble(value).toArray();
        json.writeFieldName(name);
        json.writeArray(values, 0, values.length);
    }
}
