package io.vitals.internal.report.json;

import io.vitals.DataSize;
import io.vitals.internal.result.Figures;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * The value conventions of the per-test JSON and the run index, shared by their writers: durations are seconds
 * (doubles, nanosecond precision), sizes whole bytes, and an absent value is {@code null} rather than a missing key,
 * so that consumers can rely on one shape. Arrays and nested objects are written here too, so each writer names only
 * its fields.
 */
final class JsonValues {

    private JsonValues() {
    }

    /** Writes the fields of a document. */
    @FunctionalInterface
    interface Fields {
        void write(JsonGenerator json) throws IOException;
    }

    /** Writes one value (an array element, or an object's fields) with a generator. */
    @FunctionalInterface
    interface Writer<T> {
        void write(JsonGenerator json, T value) throws IOException;
    }

    /**
     * A pretty-printed object that opens with its {@code schema}, then the fields {@code fields} writes, as bytes.
     *
     * @param sizeHint about how many bytes it will take
     * @param what what it is, for the message of a failure
     */
    static byte[] document(JsonFactory factory, int sizeHint, String schema, Fields fields, String what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(sizeHint);
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("schema", schema);
            fields.write(json);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to write " + what, e);
        }
        return out.toByteArray();
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

    static void number(JsonGenerator json, String name, OptionalDouble value) throws IOException {
        if (value.isPresent()) {
            json.writeNumberField(name, value.getAsDouble());
        } else {
            json.writeNullField(name);
        }
    }

    static void number(JsonGenerator json, String name, OptionalLong value) throws IOException {
        if (value.isPresent()) {
            json.writeNumberField(name, value.getAsLong());
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

    /** {@code "name": ["a", "b"]}. */
    static void strings(JsonGenerator json, String name, Iterable<String> values) throws IOException {
        array(json, name, values, JsonGenerator::writeString);
    }

    /** {@code "name": [item, item]}, each item written by {@code item}. */
    static <T> void array(JsonGenerator json, String name, Iterable<T> items, Writer<? super T> item)
            throws IOException {
        json.writeArrayFieldStart(name);
        for (T value : items) {
            item.write(json, value);
        }
        json.writeEndArray();
    }

    /** {@code "name": [{…}, {…}]}, each object's fields written by {@code fields}. */
    static <T> void objects(JsonGenerator json, String name, Iterable<T> items, Writer<? super T> fields)
            throws IOException {
        array(json, name, items, (generator, value) -> object(generator, value, fields));
    }

    /** One object as an array element, its fields written by {@code fields}. */
    static <T> void object(JsonGenerator json, T value, Writer<? super T> fields) throws IOException {
        json.writeStartObject();
        fields.write(json, value);
        json.writeEndObject();
    }

    /** {@code "name": {…}}, or {@code "name": null} where there is no value. */
    static <T> void object(JsonGenerator json, String name, Optional<T> value, Writer<? super T> fields)
            throws IOException {
        if (value.isPresent()) {
            json.writeObjectFieldStart(name);
            fields.write(json, value.get());
            json.writeEndObject();
        } else {
            json.writeNullField(name);
        }
    }
}
