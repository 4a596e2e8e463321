package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.PressureStall;
import io.vitals.ResourceSnapshot;
import io.vitals.testing.UsageFixtures;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SnapshotJson: a container's before and after snapshots")
class SnapshotJsonTests {

    private final ResourceSnapshot snapshot = UsageFixtures.snapshot().takenAt(Instant.parse("2026-03-01T10:15:30Z"))
            .memoryUsage(DataSize.ofMiB(1)).memoryLimit(Optional.of(DataSize.ofGiB(2))).pids(7)
            .blockWrite(DataSize.ofBytes(4096)).oomKills(1).cpuTime(Duration.ofMillis(1500))
            .cpuPressure(Optional.of(new PressureStall(Duration.ofMillis(300), Duration.ofMillis(10)))).build();

    @Test
    @DisplayName("every figure in whole bytes or seconds; an absent limit, swap or pressure is null")
    void figures() {
        JsonNode json = JsonCapture.value("before",
                g -> SnapshotJson.write(g, snapshot, new UnmeasuredCounters(false, false, false)));

        assertThat(json.get("takenAt").asText()).isEqualTo("2026-03-01T10:15:30Z");
        assertThat(json.get("memoryUsageBytes").asLong()).isEqualTo(1_048_576);
        assertThat(json.get("memoryLimitBytes").asLong()).isEqualTo(2L << 30);
        assertThat(json.get("swapBytes").isNull()).isTrue();
        assertThat(json.get("cpuSeconds").asDouble()).isEqualTo(1.5);
        assertThat(json.get("pids").asLong()).isEqualTo(7);
        assertThat(json.get("blockWriteBytes").asLong()).isEqualTo(4096);
        assertThat(json.get("oomKills").asLong()).isEqualTo(1);
        assertThat(json.at("/pressureStall/cpu/someSeconds").asDouble()).isEqualTo(0.3);
        assertThat(json.at("/pressureStall/memory").isNull()).isTrue();
        assertThat(json.get("probe").asText()).isEqualTo("HOST_CGROUP_V2");
    }

    @Test
    @DisplayName("a counter the host did not measure is null, not a zero that reads as nothing happened")
    void unmeasuredCounters() {
        JsonNode json = JsonCapture.value("after",
                g -> SnapshotJson.write(g, snapshot, new UnmeasuredCounters(true, true, true)));

        assertThat(json.get("blockReadBytes").isNull()).isTrue();
        assertThat(json.get("blockWriteBytes").isNull()).isTrue();
        assertThat(json.get("oomKills").isNull()).isTrue();
        assertThat(json.get("pids").asLong()).isEqualTo(7);
    }
}
