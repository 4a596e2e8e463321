package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ResourceUsage;
import io.vitals.internal.report.ReportFixtures;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TimelineJson: one array per figure")
class TimelineJsonTests {

    private final ResourceUsage usage = ReportFixtures.usage("tf", 1.0, 40);

    @Test
    @DisplayName("every array has one value per point, offsets in whole milliseconds")
    void arraysPerFigure() {
        JsonNode json = JsonCapture.fields(g -> TimelineJson.write(g, usage.timeline(),
                new UnmeasuredCounters(false, false, false))).get("timeline");

        assertThat(json.get("samples").asLong()).isEqualTo(40);
        assertThat(json.get("compacted").asBoolean()).isFalse();
        for (String figure : new String[] {"offsetMs", "cpuPercent", "memoryBytes", "pids", "cpuSeconds",
                "blockReadBytes", "blockWriteBytes", "netRxBytes", "netTxBytes"}) {
            assertThat(json.get(figure).size()).as(figure).isEqualTo(40);
        }
        assertThat(json.at("/offsetMs/1").asLong()).isEqualTo(50);
        assertThat(json.at("/memoryBytes/39").asLong()).isEqualTo(usage.timeline().points().get(39).memory()
                .toBytes());
    }

    @Test
    @DisplayName("block I/O the host did not measure is null rather than an array of zeros")
    void unmeasuredBlockIo() {
        JsonNode json = JsonCapture.fields(g -> TimelineJson.write(g, usage.timeline(),
                new UnmeasuredCounters(true, true, false))).get("timeline");

        assertThat(json.get("blockReadBytes").isNull()).isTrue();
        assertThat(json.get("blockWriteBytes").isNull()).isTrue();
        assertThat(json.get("netRxBytes").size()).isEqualTo(40);
    }
}
