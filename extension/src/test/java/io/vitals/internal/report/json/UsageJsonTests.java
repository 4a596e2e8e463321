package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.ReportFixtures;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("UsageJson: the test's usage and its phases'")
class UsageJsonTests {

    private final ResourceUsage usage = ReportFixtures.usage("tf", 1.0, 40);

    @Test
    @DisplayName("the test's usage holds every metric, the details behind them and its lanes")
    void testUsage() {
        JsonNode json = JsonCapture.value("usage", g -> UsageJson.writeTest(g, usage));

        assertThat(json.has(Metric.PEAK_MEMORY.jsonField())).isTrue();
        assertThat(json.at("/peakMemory/bytes").asLong()).isEqualTo(usage.peak().value().toBytes());
        assertThat(json.at("/peakMemory/method").asText()).isEqualTo("SAMPLED");
        assertThat(json.get("peakMemoryHighWaterMarkBytes").asLong()).isEqualTo(usage.peak().value().toBytes()
                + 4096);
        assertThat(json.get("throttledPeriods").asLong()).isEqualTo(7);
        assertThat(json.at("/pressureStall/cpu/fullSeconds").asDouble()).isEqualTo(0.01);
        assertThat(json.get("lanes").isArray()).isTrue();
    }

    @Test
    @DisplayName("phases are named and placed in time; their usages leave the lanes to the test's")
    void phases() {
        JsonNode json = JsonCapture.fields(g -> UsageJson.writePhases(g, usage)).get("phases");

        assertThat(json.size()).isEqualTo(3);
        assertThat(json.at("/0/name").asText()).isEqualTo("load");
        assertThat(json.at("/1/startSeconds").asDouble()).isEqualTo(0.195);
        assertThat(json.at("/1/usage").has("lanes")).isFalse();
        assertThat(json.at("/1/usage").has(Metric.PEAK_MEMORY.jsonField())).isTrue();
    }
}
