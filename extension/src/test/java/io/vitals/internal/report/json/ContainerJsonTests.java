package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.report.ReportFixtures;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ContainerJson and UnmeasuredCounters: one entry of a test's containers")
class ContainerJsonTests {

    private static JsonNode write(ContainerResult container) {
        return JsonCapture.value("container", g -> ContainerJson.write(g, container));
    }

    @Test
    @DisplayName("a healthy container: limits, parts, budgets, no fault, no log")
    void healthy() {
        JsonNode json = write(ReportFixtures.container("tf", 1.0, true, false));

        assertThat(json.get("name").asText()).isEqualTo("tf");
        assertThat(json.at("/limits/memoryBytes").asLong()).isEqualTo(2L << 30);
        assertThat(json.at("/limits/cpus").asDouble()).isEqualTo(2.0);
        assertThat(json.at("/limits/cpuset").isNull()).isTrue();
        assertThat(json.at("/limits/pids").asLong()).isEqualTo(512);
        assertThat(json.get("probe").asText()).isEqualTo("HOST_CGROUP_V2");
        assertThat(json.has("before") && json.has("after") && json.has("usage") && json.has("timeline")
                && json.has("phases") && json.has(OverlapJson.FIELD)).isTrue();
        assertThat(json.at("/budgets/0/attribute").asText()).isEqualTo("peakMemory");
        assertThat(json.at("/budgets/0/atSeconds").isNumber()).isTrue();
        assertThat(json.at("/budgets/1/atSeconds").isNull()).isTrue();
        assertThat(json.at("/budgets/1/note").asText()).isEqualTo("exact counter");
        assertThat(json.get("fault").isNull()).isTrue();
        assertThat(json.get("logTail").size()).isZero();
    }

    @Test
    @DisplayName("an OOM-killed container: the fault with its time, and the log's tail")
    void oomKilled() {
        JsonNode json = write(ReportFixtures.container("tf", 1.0, true, true));

        assertThat(json.at("/fault/kind").asText()).isEqualTo("OOM_KILL");
        assertThat(json.at("/fault/exitCode").isNull()).isTrue();
        assertThat(json.at("/fault/atSeconds").asDouble()).isEqualTo(8.2);
        assertThat(json.at("/fault/lastSeenSeconds").isNull()).isTrue();
        assertThat(json.get("logTail").size()).isEqualTo(2);
    }

    @Test
    @DisplayName("a counter the probe could not measure is null in both snapshots and the timeline, as in the usage")
    void unmeasuredCounters() {
        // cgroup v1 does not charge buffered writes to the writer: a zero block write there is not measured
        ContainerResult v1 = ReportFixtures.measuredBy(ReportFixtures.result("com.example.T", "t"),
                ProbeKind.HOST_CGROUP_V1, DataSize.ofMiB(3), DataSize.ZERO).containers().get(0);
        JsonNode json = write(v1);

        assertThat(UnmeasuredCounters.of(v1.usage())).isEqualTo(new UnmeasuredCounters(false, true, false));
        assertThat(json.at("/before/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/after/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/timeline/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/after/blockReadBytes").isNumber()).isTrue();
        assertThat(json.at("/timeline/blockReadBytes").isArray()).isTrue();
    }

    @Test
    @DisplayName("the Engine API reports no OOM kills: null in both snapshots, block I/O stays measured")
    void engineApiOomKills() {
        ContainerResult engine = ReportFixtures.measuredBy(ReportFixtures.result("com.example.T", "t"),
                ProbeKind.ENGINE_API, DataSize.ofMiB(3), DataSize.ofKiB(7)).containers().get(0);
        JsonNode json = write(engine);

        assertThat(UnmeasuredCounters.of(engine.usage())).isEqualTo(new UnmeasuredCounters(false, false, true));
        assertThat(json.at("/before/oomKills").isNull()).isTrue();
        assertThat(json.at("/after/oomKills").isNull()).isTrue();
        assertThat(json.at("/after/blockWriteBytes").isNumber()).isTrue();
    }
}
