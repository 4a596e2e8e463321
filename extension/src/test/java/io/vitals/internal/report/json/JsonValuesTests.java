package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;

import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JsonValues: seconds, whole bytes, and null for what is absent")
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
}
