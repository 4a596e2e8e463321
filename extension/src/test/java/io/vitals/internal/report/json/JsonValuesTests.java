package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.DataSize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JsonValues: seconds, whole bytes, null for what is absent, arrays, objects and documents")
class JsonValuesTests {

    @Test
    @DisplayName("present values are written in their unit, absent ones as null under the same key")
    void presentAndAbsent() {
        JsonNode json = JsonCapture.fields(g -> {
            JsonValues.seconds(g, "s", Duration.ofNanos(1_500_000_001));
            JsonValues.seconds(g, "at", Optional.of(Duration.ofMillis(250)));
            JsonValues.seconds(g, "never", Optional.empty());
            JsonValues.bytes(g, "limit", Optional.of(DataSize.ofKiB(2)));
            JsonValues.bytes(g, "none", Optional.empty());
            JsonValues.string(g, "note", Optional.of("x"));
            JsonValues.string(g, "noNote", Optional.empty());
            JsonValues.counter(g, "kills", 3, false);
            JsonValues.counter(g, "unmeasured", 3, true);
        });

        assertThat(json.get("s").asDouble()).isEqualTo(1.500000001);
        assertThat(json.get("at").asDouble()).isEqualTo(0.25);
        assertThat(json.get("limit").asLong()).isEqualTo(2048);
        assertThat(json.get("note").asText()).isEqualTo("x");
        assertThat(json.get("kills").asLong()).isEqualTo(3);
        assertThat(json.size()).isEqualTo(9);
        assertThat(json.get("never").isNull()).isTrue();
        assertThat(json.get("none").isNull()).isTrue();
        assertThat(json.get("noNote").isNull()).isTrue();
        assertThat(json.get("unmeasured").isNull()).isTrue();
    }

    @Test
    @DisplayName("optional numbers keep their kind, and an absent one is null")
    void optionalNumbers() {
        JsonNode json = JsonCapture.fields(g -> {
            JsonValues.number(g, "cpus", OptionalDouble.of(1.5));
            JsonValues.number(g, "pids", OptionalLong.of(64));
            JsonValues.number(g, "noCpus", OptionalDouble.empty());
            JsonValues.number(g, "noPids", OptionalLong.empty());
        });

        assertThat(json.get("cpus").isDouble()).isTrue();
        assertThat(json.get("cpus").asDouble()).isEqualTo(1.5);
        assertThat(json.get("pids").isIntegralNumber()).isTrue();
        assertThat(json.get("pids").asLong()).isEqualTo(64);
        assertThat(json.get("noCpus").isNull()).isTrue();
        assertThat(json.get("noPids").isNull()).isTrue();
    }

    @Test
    @DisplayName("arrays hold each item in order; an optional object is the object or null")
    void arraysAndObjects() {
        JsonNode json = JsonCapture.fields(g -> {
            JsonValues.strings(g, "names", List.of("a", "b"));
            JsonValues.strings(g, "none", List.of());
            JsonValues.objects(g, "points", List.of(1, 2), (p, n) -> p.writeNumberField("n", n));
            JsonValues.object(g, "step", Optional.of("s1"), (p, build) -> p.writeStringField("build", build));
            JsonValues.object(g, "noStep", Optional.<String>empty(), (p, build) -> p.writeStringField("build", build));
        });

        assertThat(json.get("names").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(json.get("none").toString()).isEqualTo("[]");
        assertThat(json.get("points").toString()).isEqualTo("[{\"n\":1},{\"n\":2}]");
        assertThat(json.get("step").toString()).isEqualTo("{\"build\":\"s1\"}");
        assertThat(json.get("noStep").isNull()).isTrue();
    }

    @Test
    @DisplayName("a document opens with its schema, is pretty-printed, and names itself when it cannot be written")
    void document() {
        String text = new String(JsonValues.document(new JsonFactory(), 16, "vitals-x/1",
                g -> g.writeNumberField("n", 1), "the x"), StandardCharsets.UTF_8);

        assertThat(text.lines()).containsExactly("{", "  \"schema\" : \"vitals-x/1\",", "  \"n\" : 1", "}");
        assertThatThrownBy(() -> JsonValues.document(new JsonFactory(), 16, "vitals-x/1", g -> {
            throw new IOException("disk full");
        }, "the x")).isInstanceOf(UncheckedIOException.class).hasMessage("Failed to write the x")
                .hasRootCauseMessage("disk full");
    }
}
