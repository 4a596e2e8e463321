package io.vitals.internal.report.json;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Runs one of the per-test JSON's part writers inside an object and reads back what it wrote. */
final class JsonCapture {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    interface Part {
        void write(JsonGenerator json) throws IOException;
    }

    private JsonCapture() {
    }

    /** The object {@code {…}} holding the fields {@code part} wrote. */
    static JsonNode fields(Part part) {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartObject();
            part.write(json);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return MAPPER.readTree(out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value {@code part} wrote as field {@code name}'s value. */
    static JsonNode value(String name, Part part) {
        return fields(json -> {
            json.writeFieldName(name);
            part.write(json);
        }).get(name);
    }
}
