package io.vitals.internal.report.json;

import io.vitals.DataSize;
import io.vitals.internal.result.Figures;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The value conventions of the per-test JSON, shared by its writers: durations are seconds (doubles, nanosecond
 * precision), sizes whole bytes, and an absent value is {@code null} rather than a missing key, so that consumers
 * can rely on one shape.
 */
final class JsonValues {

    private JsonValues() {
    }

    static void seconds(JsonGenerator json, String name, Duration duration) throws IOException {
        json.writeNumberField(name, Figures.seconds(duration));
    }

    static void seconds(JsonGenerator json, String name, Optional<Duration> duration) throws IOException {
        if (duration.isPresent()) {
            seconds(json, name, duration.get());
        } else {
            json.writeNullField(name);
        }
    }

    static void bytes(JsonGenerator json, String name, Optional<DataSize> size) throws IOException {
        if (size.isPresent()) {
            json.writeNumberField(name, size.get().toBytes());
        } else {
            json.writeNullField(name);
        }
    }

    static void string(JsonGenerator json, String name, Optional<String> value) throws IOException {
        if (value.isPresent()) {
            json.writeStringField(name, value.get());
        } else {
            json.writeNullField(name);
        }
    }

    /** A raw counter, or {@code null} where the host did not measure it ({@link UnmeasuredCounters}). */
    static void counter(JsonGenerator json, String name, long value, boolean absent) throws IOException {
        if (absent) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, value);
        }
    }
}
