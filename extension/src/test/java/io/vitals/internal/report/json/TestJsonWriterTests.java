package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.GpuUsage;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.result.Figures;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.SchemaSupport;
import io.vitals.internal.result.TestResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.IntStream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TestJsonWriterTests {

    private final ObjectMapper mapper = new ObjectMapper();
    private final TestJsonWriter writer = new TestJsonWriter(new JsonFactory());

    @Test
    @DisplayName("a test with budgets and phases validates against vitals-test-1.schema.json")
    void validatesAgainstSchema() throws Exception {
        JsonNode json = mapper.readTree(writer.write(ReportFixtures.result("com.example.TrainTests", "train")));

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        assertThat(json.get("schema").asText()).isEqualTo("vitals-test/1");
    }

    @Test
    @DisplayName("budget results of every status, on a phase or not, validate and read back as they were written")
    void budgetResultsReadBack() throws Exception {
        Limit headroom = Limit.parse(Metric.MEMORY_HEADROOM, "60%");
        BudgetResult phaseFloor = new BudgetResult(Metric.MEMORY_HEADROOM, Optional.of("train"),
                BudgetStatus.BREACHED, headroom, OptionalDouble.of(48.25), OptionalDouble.of(19.583333333333332),
                "sampled every 50 ms", Optional.of(Duration.ofMillis(1250)), Optional.empty(), false);
        BudgetResult unmeasurable = new BudgetResult(Metric.BLOCK_WRITE, Optional.empty(),
                BudgetStatus.NOT_MEASURABLE, Limit.parse(Metric.BLOCK_WRITE, "1MiB"), OptionalDouble.of(0),
                OptionalDouble.empty(), "blkio", Optional.empty(), Optional.of("cgroup v1"), false);
        BudgetResult strict = new BudgetResult(Metric.BLOCK_READ, Optional.empty(), BudgetStatus.NOT_MEASURABLE,
                Limit.parse(Metric.BLOCK_READ, "1MiB"), OptionalDouble.of(0), OptionalDouble.empty(), "blkio",
                Optional.empty(), Optional.of("cgroup v1, strict"), true);
        BudgetResult ok = new BudgetResult(Metric.CPU_TIME, Optional.of("load data"), BudgetStatus.OK,
                Limit.parse(Metric.CPU_TIME, "60s"), OptionalDouble.of(12.5), OptionalDouble.of(-79.16666666666667),
                "cpu.stat", Optional.empty(), Optional.empty(), false);
        List<BudgetResult> budgets = List.of(phaseFloor, unmeasurable, strict, ok);
        TestResult result = ReportFixtures.withoutGpu(ReportFixtures.result("com.example.TrainTests", "train"),
                budgets);

        byte[] written = writer.write(result);
        JsonNode json = mapper.readTree(written);
        TestResult back = new TestJsonReader(mapper).read(written, "train.json");

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        assertThat(json.at("/containers/0/budgets/0/attribute").asText()).isEqualTo("memoryHeadroom[train]");
        assertThat(json.at("/containers/0/budgets/0/actual").asText()).isEqualTo("48.3%");
        assertThat(json.at("/containers/0/budgets/1/actual").asText()).isEqualTo("not measurable here");
        assertThat(json.at("/containers/0/budgets/1/measurable").asBoolean()).isFalse();
        assertThat(json.at("/containers/0/budgets/1/passed").asBoolean()).isTrue();
        assertThat(json.at("/containers/0/budgets/2/passed").asBoolean()).isFalse();
        assertThat(back.containers().get(0).budgets()).isEqualTo(budgets);
        assertThat(writer.write(back)).isEqualTo(written);
    }

    @Test
    @DisplayName("an OOM-killed, failed, parameterized test validates too (faults, log tail, nulls)")
    void oomValidates() throws Exception {
        JsonNode oom = mapper.readTree(writer.write(ReportFixtures.oomKilled("com.example.TrainTests", "oom")));
        JsonNode param = mapper.readTree(writer.write(ReportFixtures.result("com.example.TrainTests", "train",
                Optional.of("[2] batch=128"), 1.0)));

        assertThat(SchemaSupport.testSchema().validate(oom)).isEmpty();
        assertThat(SchemaSupport.testSchema().validate(param)).isEmpty();
        assertThat(oom.at("/containers/0/fault/kind").asText()).isEqualTo("OOM_KILL");
        assertThat(oom.at("/containers/0/fault/atSeconds").asDouble()).isEqualTo(8.2);
        assertThat(oom.at("/test/failureMessage").asText()).isEqualTo("Container 'tf' was OOM-killed");
        assertThat(oom.at("/test/breached").asBoolean()).isTrue();
        assertThat(param.at("/test/parameters").asText()).isEqualTo("[2] batch=128");
    }

    @Test
    @DisplayName("an engine gone during the test: the fault validates, names the kind, when the engine was last "
            + "seen and the partial window, and reads back")
    void engineGoneValidatesAndReadsBack() throws Exception {
        TestResult result = ReportFixtures.engineGone("com.example.TrainTests", "gone");
        JsonNode json = mapper.readTree(writer.write(result));

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        assertThat(json.at("/containers/0/fault/kind").asText()).isEqualTo("ENGINE_GONE");
        assertThat(json.at("/containers/0/fault/atSeconds").asDouble()).isEqualTo(2.4);
        assertThat(json.at("/containers/0/fault/lastSeenSeconds").asDouble()).isEqualTo(1.9);
        assertThat(json.at("/containers/0/fault/partialWindow").asBoolean()).isTrue();
        assertThat(json.at("/test/outcome").asText()).isEqualTo("FAILED");
        TestResult back = new TestJsonReader(mapper).read(writer.write(result), "gone.json");
        assertThat(back.containers().get(0).fault()).isEqualTo(result.containers().get(0).fault());
        // an OOM kill leaves the window whole, and says nothing of the engine
        JsonNode oom = mapper.readTree(writer.write(ReportFixtures.oomKilled("com.example.TrainTests", "oom")));
        assertThat(oom.at("/containers/0/fault/partialWindow").asBoolean()).isFalse();
        assertThat(oom.at("/containers/0/fault/lastSeenSeconds").isNull()).isTrue();
    }

    @Test
    @DisplayName("each container names its host shape and the cell of each column, and a read back keeps both")
    void hostShapeAndCells() throws Exception {
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        JsonNode json = mapper.readTree(writer.write(result));

        JsonNode shape = json.at("/containers/0/hostShape");
        assertThat(shape.get("id").asText()).isEqualTo("cgroup-v2-6.12-root");
        assertThat(shape.get("label").asText()).isEqualTo("cgroup v2, kernel 6.12, root");
        assertThat(shape.get("cgroup").asText()).isEqualTo("v2");
        assertThat(shape.get("kernel").asText()).isEqualTo("6.12.48-amd64");
        assertThat(shape.get("root").asBoolean()).isTrue();
        assertThat(shape.get("engine").asText()).isEqualTo("docker");
        assertThat(shape.get("peakResettable").asBoolean()).isTrue();
        JsonNode cells = json.at("/containers/0/exactness");
        // the fixture's usage has a kernel mark: exact, in the column of a container started by the test
        assertThat(cells.at("/peakMemoryStartedByTest/cell").asText()).isEqualTo("exact");
        assertThat(cells.at("/peakMemoryStartedByTest/samplingIntervalSeconds").isNull()).isTrue();
        assertThat(cells.get("peakMemorySharedByTests").isNull()).isTrue();
        assertThat(cells.at("/cpuTime/cell").asText()).isEqualTo("exact");
        assertThat(cells.at("/blockWrite/cell").asText()).isEqualTo("exact");
        assertThat(cells.at("/pressureStall/cell").asText()).isEqualTo("exact");
        assertThat(cells.at("/oomKills/cell").asText()).isEqualTo("exact");
        assertThat(cells.at("/oomKills/reason").isNull()).isTrue();

        TestResult back = new TestJsonReader(mapper).read(writer.write(result), "train.json");
        assertThat(back.containers().get(0).hostShape()).isEqualTo(result.containers().get(0).hostShape());
        assertThat(back.containers().get(0).exactness()).isEqualTo(result.containers().get(0).exactness());
    }

    @Test
    @DisplayName("a report from before host shapes cannot be read back, and the error says why, naming the file")
    void reportWithoutHostShape() throws Exception {
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode) mapper
                .readTree(writer.write(result));
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.at("/containers/0")).remove(
                java.util.List.of("hostShape", "exactness"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TestJsonReader(mapper).read(
                mapper.writeValueAsBytes(json), "shard-1/train.json")).isInstanceOf(java.io.IOException.class)
                .hasMessageStartingWith("shard-1/train.json: ")
                .hasMessageContaining("container 'tf' has no \"hostShape\" and \"exactness\"")
                .hasMessageContaining("merge report directories written by one version");
    }

    @Test
    @DisplayName("a sampled peak of a shared container and an unavailable figure validate, with interval and reason")
    void sampledAndUnavailableCells() throws Exception {
        TestResult fixture = ReportFixtures.result("com.example.TrainTests", "train");
        var c = fixture.containers().get(0);
        ResourceUsage u = c.usage();
        // no mark (a shared container on 6.1), and no pressure files
        ResourceUsage shared = u.toBuilder().peakMemoryHighWaterMark(Optional.empty())
                .pressureStallCpu(Optional.empty()).pressureStallMemory(Optional.empty())
                .pressureStallIo(Optional.empty()).build();
        var container = new io.vitals.internal.result.ContainerResult(c.name(), c.image(), c.limits(), shared,
                c.probeDescription(), c.hostShape(), false, c.budgets(), c.fault(), c.logTail());
        TestResult result = ReportFixtures.withContainers(fixture, container);
        JsonNode json = mapper.readTree(writer.write(result));

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        JsonNode cells = json.at("/containers/0/exactness");
        assertThat(cells.get("peakMemoryStartedByTest").isNull()).isTrue();
        assertThat(cells.at("/peakMemorySharedByTests/cell").asText()).isEqualTo("sampled");
        assertThat(cells.at("/peakMemorySharedByTests/samplingIntervalSeconds").asDouble()).isEqualTo(0.05);
        assertThat(cells.at("/pressureStall/cell").asText()).isEqualTo("unavailable");
        assertThat(cells.at("/pressureStall/reason").asText())
                .startsWith("The host exposes no pressure files for this container's cgroup");
        assertThat(new TestJsonReader(mapper).read(writer.write(result), "t.json").containers().get(0)
                .measuredFromStart()).isFalse();
    }

    @Test
    @DisplayName("the schema check catches a wrong type and a missing field")
    void schemaCheckIsStrict() throws Exception {
        JsonNode json = mapper.readTree(writer.write(ReportFixtures.result("com.example.TrainTests", "train")));
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.at("/containers/0/usage")).put("peakPids", "many");
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("test")).remove("outcome");

        assertThat(SchemaSupport.testSchema().validate(json))
                .anySatisfy(e -> assertThat(e).contains("peakPids"))
                .anySatisfy(e -> assertThat(e).contains("missing required outcome"));
    }

    @Test
    @DisplayName("figures in the JSON equal those of the ResourceUsage")
    void figuresMatch() throws Exception {
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        ResourceUsage u = result.containers().get(0).usage();
        JsonNode c = mapper.readTree(writer.write(result)).at("/containers/0");
        JsonNode usage = c.get("usage");

        assertThat(usage.at("/peakMemory/bytes").asLong()).isEqualTo(u.peakMemory().toBytes());
        assertThat(usage.at("/peakMemory/method").asText()).isEqualTo("SAMPLED");
        assertThat(usage.at("/peakMemory/description").asText()).isEqualTo("sampled every 50 ms");
        assertThat(usage.at("/peakMemory/atSeconds").asDouble()).isEqualTo(Figures.seconds(u.peak().at()));
        assertThat(usage.get("peakMemoryHighWaterMarkBytes").asLong())
                .isEqualTo(u.peakMemoryHighWaterMark().orElseThrow().toBytes());
        assertThat(usage.get("memoryLimitBytes").asLong()).isEqualTo(u.memoryLimit().orElseThrow().toBytes());
        assertThat(usage.get("cpuSeconds").asDouble()).isEqualTo(Figures.seconds(u.cpuTime()));
        assertThat(usage.get("averageCpuPercent").asDouble()).isEqualTo(u.averageCpuPercent().value());
        assertThat(usage.get("peakCpuPercent").asDouble()).isEqualTo(u.peakCpuPercent().value());
        assertThat(usage.get("blockReadBytes").asLong()).isEqualTo(u.blockRead().toBytes());
        assertThat(usage.get("blockWriteBytes").asLong()).isEqualTo(u.blockWrite().toBytes());
        assertThat(usage.get("networkReceivedBytes").asLong()).isEqualTo(u.networkReceived().toBytes());
        assertThat(usage.get("networkSentBytes").asLong()).isEqualTo(u.networkSent().toBytes());
        assertThat(usage.get("peakPids").asLong()).isEqualTo(u.peakPids());
        assertThat(usage.get("throttledSeconds").asDouble()).isEqualTo(Figures.seconds(u.throttledTime()));
        assertThat(usage.at("/pressureStall/cpu/someSeconds").asDouble()).isEqualTo(0.3);
        assertThat(usage.at("/pressureStall/memory").isNull()).isTrue();
        assertThat(c.at("/before/memoryUsageBytes").asLong()).isEqualTo(u.before().memoryUsage().toBytes());
        assertThat(c.at("/after/cpuSeconds").asDouble()).isEqualTo(Figures.seconds(u.after().cpuTime()));
        assertThat(c.at("/limits/cpus").asDouble()).isEqualTo(2.0);
        assertThat(c.at("/limits/cpuset").isNull()).isTrue();
        assertThat(c.get("probe").asText()).isEqualTo("HOST_CGROUP_V2");
        assertThat(c.get("samplingIntervalSeconds").asDouble()).isEqualTo(0.05);
        assertThat(c.at("/phases/1/name").asText()).isEqualTo("train");
        assertThat(c.at("/budgets/0/attribute").asText()).isEqualTo("peakMemory");
        assertThat(c.at("/budgets/0/passed").asBoolean()).isTrue();
    }

    @Test
    @DisplayName("GPU samples are kept as lanes of the test's usage (null where a sample has no figure) and read back")
    void gpuLanes() throws Exception {
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        GpuUsage gpu = result.containers().get(0).usage().gpu();
        JsonNode json = mapper.readTree(writer.write(result));

        JsonNode lanes = json.at("/containers/0/usage/lanes");
        assertThat(lanes).extracting(l -> l.get("key").asText())
                .containsExactly("gpuMemory", "gpuUtilization", "gpuPower", "gpuTemperature", "gpuSmClock");
        assertThat(lanes.get(0).get("unit").asText()).isEqualTo("SIZE");
        assertThat(lanes.get(0).get("budgetAttributes").get(0).asText()).isEqualTo("peakGpuMemory");
        assertThat(lanes.get(0).get("offsetMs").get(12).asLong()).isEqualTo(6000);
        assertThat(lanes.get(0).at("/series/0/values").get(12).asLong())
                .isEqualTo(gpu.peakMemory().orElseThrow().toBytes());
        // device and memory utilisation; no SM share series, since no sample has one (nvidia-smi)
        assertThat(lanes.get(1).get("series")).extracting(s -> s.get("key").asText()).containsExactly("device", "memory");
        assertThat(lanes.get(1).at("/series/0/values").get(3).isNull()).isTrue();
        assertThat(lanes.get(3).at("/series/0/values").get(19).asDouble()).isEqualTo(54);
        assertThat(json.at("/containers/0/phases/0/usage").has("lanes")).isFalse();
        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();

        TestResult back = new TestJsonReader(mapper).read(writer.write(result), "train.json");
        assertThat(back.containers().get(0).usage().gpu().timeline()).isEqualTo(gpu.timeline());
        // the GPUs the container asked for, as docker run --gpus reads them
        assertThat(json.at("/containers/0/limits/gpus").asText()).isEqualTo("device=0");
        assertThat(back.containers().get(0).limits()).isEqualTo(result.containers().get(0).limits());
    }

    @Test
    @DisplayName("without GPU samples there is no lane, and a report from before lanes reads back without a timeline")
    void noGpuLanes() throws Exception {
        TestResult result = ReportFixtures.withoutGpu(ReportFixtures.result("com.example.TrainTests", "train"),
                java.util.List.of());
        JsonNode json = mapper.readTree(writer.write(result));
        assertThat(json.at("/containers/0/usage/lanes")).isEmpty();

        ((com.fasterxml.jackson.databind.node.ObjectNode) json.at("/containers/0/usage")).remove("lanes");
        TestResult back = new TestJsonReader(mapper).read(mapper.writeValueAsBytes(json), "train.json");
        assertThat(back.containers().get(0).usage().gpu().timeline()).isEmpty();
    }

    @Test
    @DisplayName("the schema's host shape ids are the rows of the exactness table, no more, no fewer")
    void hostShapeIds() throws Exception {
        JsonNode schema = mapper.readTree(getClass().getResourceAsStream("/io/vitals/report/vitals-test-1.schema.json"));
        List<String> ids = new ArrayList<>();
        schema.at("/$defs/hostShape/properties/id/enum").forEach(id -> ids.add(id.asText()));

        assertThat(ids).containsExactlyInAnyOrderElementsOf(Arrays.stream(HostShape.Row.values())
                .map(HostShape.Row::id).toList());
    }

    @Test
    @DisplayName("the timeline is written as compact parallel arrays, one element per point")
    void timelineArrays() throws Exception {
        TestResult result = ReportFixtures.result("com.example.TrainTests", "train");
        ResourceUsage u = result.containers().get(0).usage();
        byte[] bytes = writer.write(result);
        JsonNode timeline = mapper.readTree(bytes).at("/containers/0/timeline");

        for (String name : new String[] { "offsetMs", "cpuPercent", "memoryBytes", "pids", "cpuSeconds",
                "blockReadBytes", "blockWriteBytes", "netRxBytes", "netTxBytes" }) {
            assertThat(timeline.get(name).size()).as(name).isEqualTo(200);
        }
        IntStream.range(0, 200).forEach(i -> {
            assertThat(timeline.get("memoryBytes").get(i).asLong())
                    .isEqualTo(u.timeline().points().get(i).memory().toBytes());
            assertThat(timeline.get("offsetMs").get(i).asLong())
                    .isEqualTo(u.timeline().points().get(i).offset().toMillis());
            assertThat(timeline.get("cpuPercent").get(i).asDouble())
                    .isEqualTo(u.timeline().points().get(i).cpuPercent());
        });
        // One line per array, not one per number.
        assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8).lines().count()).isLessThan(450);
    }
}
