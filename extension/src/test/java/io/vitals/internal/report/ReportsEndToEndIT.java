package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceMonitor;
import io.vitals.ResourceUsage;
import io.vitals.internal.report.prometheus.PrometheusWriterTests;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.units.DurationParser;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.junit.jupiter.Container;

/**
 * Reports as a run of the extension writes them, on real containers: the JSON matches its schema and the figures
 * the test itself saw, the Prometheus file parses, the summary lists breaches first; and a baseline catches a
 * workload made 30 % heavier.
 */
@DisplayName("Reports and baselines, end to end")
class ReportsEndToEndIT {

    /** Usages the fixture tests saw through their ResourceMonitor, by test name; fixtures run one at a time. */
    static final Map<String, ResourceUsage> SEEN = new ConcurrentHashMap<>();

    /** CPU work (stress-ng int64 ops, about 2,900 per CPU second here) of the baseline fixture's next run. */
    static volatile int ops = 2900;

    @TempDir
    Path dir;

    private static EngineExecutionResults run(Class<?> fixture, Map<String, String> configuration) {
        Map<String, String> parameters = new HashMap<>(configuration);
        parameters.putIfAbsent("vitals.console", "off");
        return EngineTestKit.engine("junit-jupiter").configurationParameters(parameters)
                .selectors(selectClass(fixture)).execute();
    }

    @Test
    @DisplayName("JSON per test matches its schema and the figures the test measured; Prometheus and Markdown too")
    void reportsHoldTheMeasuredFigures() throws Exception {
        Path reports = dir.resolve("reports");
        EngineExecutionResults results = run(MeasuredTestCases.class, Map.of("vitals.reportDir", reports.toString(),
                MeasureResources.PROMETHEUS_SERIES_KEY, "test")); // every test's series, not only the breached
        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(1));

        Path classDir = reports.resolve(ReportNames.classDirectory(MeasuredTestCases.class.getName()));
        JsonNode json = new ObjectMapper().readTree(classDir.resolve("allocates.json").toFile());
        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        ResourceUsage seen = SEEN.get("allocates");
        JsonNode usage = json.path("containers").path(0).path("usage");
        assertThat(usage.path("peakMemory").path("bytes").asLong()).isEqualTo(seen.peakMemory().toBytes());
        assertThat(usage.path("peakMemory").path("bytes").asLong()).isGreaterThan(200L << 20);
        assertThat(usage.path("cpuSeconds").asDouble()).isBetween(seen.cpuTime().toNanos() / 1e9,
                seen.cpuTime().toNanos() / 1e9 + 0.2);
        assertThat(usage.path("memoryLimitBytes").asLong()).isEqualTo(1L << 30);
        assertThat(json.path("containers").path(0).path("probe").asText()).isEqualTo("HOST_CGROUP_V1");
        assertThat(json.path("test").path("outcome").asText()).isEqualTo("PASSED");

        // this host's row of docs/metrics.md's exactness table, and the cells a container shared by the class's
        // tests gets on it: the facts are read here independently of the extension (procfs, the cgroup mount)
        JsonNode shape = json.path("containers").path(0).path("hostShape");
        assertThat(Files.exists(Path.of("/sys/fs/cgroup/memory/memory.max_usage_in_bytes"))).as("a v1 host").isTrue();
        boolean root = runsAsRoot();
        // as root in the build; as a non-root user of the docker group with examples/setup/run.sh v1-user
        assertThat(shape.path("id").asText()).isEqualTo(root ? "cgroup-v1-root" : "cgroup-v1-nonroot");
        assertThat(shape.path("label").asText()).isEqualTo(root ? "cgroup v1, root" : "cgroup v1, non-root");
        assertThat(shape.path("cgroup").asText()).isEqualTo("v1");
        assertThat(shape.path("kernel").asText())
                .isEqualTo(Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        assertThat(shape.path("root").asBoolean()).isEqualTo(root);
        assertThat(shape.path("engine").asText()).isEqualTo("docker");
        // only root may write max_usage_in_bytes
        assertThat(shape.path("peakResettable").asBoolean()).isEqualTo(root);
        JsonNode cells = json.path("containers").path(0).path("exactness");
        // a static container: the class started it, so each test's window joins it (the shared column)
        assertThat(cells.path("peakMemoryStartedByTest").isNull()).isTrue();
        if (root) {
            assertThat(cells.path("peakMemorySharedByTests").path("cell").asText()).isEqualTo("exact");
            assertThat(usage.path("peakMemoryHighWaterMarkBytes").asLong()).isGreaterThan(200L << 20);
        } else {
            // no reset, so the class-long mark says nothing about this test: its peak is sampled
            assertThat(cells.path("peakMemorySharedByTests").path("cell").asText()).isEqualTo("sampled");
            assertThat(cells.path("peakMemorySharedByTests").path("samplingIntervalSeconds").asDouble())
                    .isEqualTo(0.05);
            assertThat(usage.path("peakMemoryHighWaterMarkBytes").isMissingNode()
                    || usage.path("peakMemoryHighWaterMarkBytes").isNull()).isTrue();
        }
        assertThat(cells.path("cpuTime").path("cell").asText()).isEqualTo("exact");
        assertThat(cells.path("blockWrite").path("cell").asText()).isEqualTo("unavailable");
        assertThat(cells.path("blockWrite").path("reason").asText())
                .startsWith("blockWrite cannot be measured here: cgroup v1 does not attribute buffered writeback");
        assertThat(cells.path("pressureStall").path("cell").asText()).isEqualTo("exact"); // the unified tree's files
        assertThat(usage.path("pressureStall").path("cpu").isNull()).isFalse();
        assertThat(cells.path("oomKills").path("cell").asText()).isEqualTo("exact");
        JsonNode index = new ObjectMapper().readTree(reports.resolve("vitals.json").toFile());
        assertThat(index.path("hostShapes")).hasSize(1);
        assertThat(index.path("hostShapes").path(0).path("id").asText()).isEqualTo(shape.path("id").asText());
        assertThat(index.at("/tests/0/containers/0/hostShape").asText()).isEqualTo(shape.path("id").asText());

        JsonNode breached = new ObjectMapper().readTree(classDir.resolve("breaksItsBudget.json").toFile());
        assertThat(SchemaSupport.testSchema().validate(breached)).isEmpty();
        assertThat(breached.path("test").path("outcome").asText()).isEqualTo("FAILED");
        assertThat(breached.path("containers").path(0).path("budgets").path(0).path("passed").asBoolean()).isFalse();

        List<PrometheusWriterTests.Sample> samples = PrometheusWriterTests.parse(
                Files.readString(reports.resolve("vitals.prom")));
        assertThat(samples).anySatisfy(sample -> {
            assertThat(sample.name()).isEqualTo("vitals_container_memory_peak_bytes");
            assertThat(sample.labels()).containsEntry("test", "allocates");
            assertThat((long) sample.value()).isEqualTo(seen.peakMemory().toBytes());
        });

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary.indexOf("breaksItsBudget")).as("breaches are listed before the tables")
                .isLessThan(summary.indexOf("| Test |"));
        assertThat(summary).contains(root ? "Host shape: cgroup v1, root (`cgroup-v1-root`)"
                : "Host shape: cgroup v1, non-root (`cgroup-v1-nonroot`)");
        assertThat(Files.readString(reports.resolve("index.html"))).contains("allocates", "breaksItsBudget");
    }

    @Test
    @DisplayName("a container started by the test: its peak is in the started-by-test column, exact from the mark")
    void containerStartedByTheTest() throws Exception {
        Path reports = dir.resolve("reports");
        run(OwnContainer.class, Map.of("vitals.reportDir", reports.toString())).testEvents()
                .assertStatistics(stats -> stats.succeeded(1));

        JsonNode json = new ObjectMapper().readTree(reports.resolve(ReportNames.classDirectory(
                OwnContainer.class.getName())).resolve("allocatesInItsOwn.json").toFile());
        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        JsonNode container = json.path("containers").path(0);
        assertThat(container.path("hostShape").path("id").asText())
                .isEqualTo(runsAsRoot() ? "cgroup-v1-root" : "cgroup-v1-nonroot");
        assertThat(container.path("exactness").path("peakMemorySharedByTests").isNull()).isTrue();
        assertThat(container.path("exactness").path("peakMemoryStartedByTest").path("cell").asText())
                .isEqualTo("exact");
        assertThat(container.path("usage").path("peakMemoryHighWaterMarkBytes").asLong()).isGreaterThan(100L << 20);
    }

    /** Read from procfs, independently of the extension. */
    private static boolean runsAsRoot() throws IOException {
        return Files.readString(Path.of("/proc/self/status")).lines().filter(line -> line.startsWith("Uid:"))
                .findFirst().orElseThrow().split("\\s+")[1].equals("0");
    }

    @Test
    @DisplayName("each test's JSON is attached as a JUnit file entry only where a listener records file entries")
    void jsonAttachedOnlyWhereRecorded() throws Exception {
        Path outputs = dir.resolve("junit-outputs");
        org.junit.platform.engine.OutputDirectoryCreator creator = new org.junit.platform.engine
                .OutputDirectoryCreator() {
            @Override
            public Path getRootDirectory() {
                return outputs;
            }

            @Override
            public Path createOutputDirectory(org.junit.platform.engine.TestDescriptor test) throws IOException {
                return Files.createDirectories(outputs.resolve(Integer.toHexString(test.getUniqueId().hashCode())));
            }
        };
        for (String openXml : List.of("false", "true")) {
            Path reports = dir.resolve("reports-" + openXml);
            EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                    .configurationParameters(Map.of("vitals.console", "off", "vitals.reportDir", reports.toString(),
                            "junit.platform.reporting.open.xml.enabled", openXml))
                    .outputDirectoryCreator(creator).selectors(selectClass(OneQuickTest.class)).execute();
            results.testEvents().assertStatistics(stats -> stats.succeeded(1));
            // written on the report thread, and complete once the run has ended
            Path written = reports.resolve(ReportNames.classDirectory(OneQuickTest.class.getName()))
                    .resolve("quick.json");
            assertThat(written).isNotEmptyFile();
            List<org.junit.platform.engine.reporting.FileEntry> attached = results.allEvents().fileEntryPublished()
                    .stream().map(e -> e.getPayload(org.junit.platform.engine.reporting.FileEntry.class)
                            .orElseThrow()).toList();
            if (openXml.equals("true")) {
                assertThat(attached).singleElement().satisfies(entry -> {
                    assertThat(entry.getPath().getFileName()).hasToString("quick.json");
                    assertThat(entry.getPath()).hasSameTextualContentAs(written);
                });
            } else {
                assertThat(attached).isEmpty();
            }
        }
    }

    @Test
    @DisplayName("a workload made twice as heavy fails against the baseline; in warn mode it passes and is listed")
    void baselineCatchesARegression() throws Exception {
        Path baseline = dir.resolve("baseline.json");
        ops = 2900;
        run(BaselineTestCases.class, Map.of("vitals.reportDir", dir.resolve("r1").toString(),
                "vitals.baseline", baseline.toString(), "vitals.baseline.update", "true"))
                .testEvents().assertStatistics(stats -> stats.succeeded(1));
        assertThat(baseline).exists();

        // Twice the work: CPU time of the same work varies by up to 60 % between two runs on a busy 2-core runner
        // (measured: 1.118 s and 1.829 s for a 31 % step, next to four compiling JVMs), so a smaller step could
        // hide in the noise or overshoot any band. The band below only asks for the step's direction and size.
        ops = 5800;
        EngineExecutionResults failing = run(BaselineTestCases.class, Map.of(
                "vitals.reportDir", dir.resolve("r2").toString(), "vitals.baseline", baseline.toString(),
                "vitals.tolerance", "10%"));
        Throwable failure = failing.testEvents().failed().stream().findFirst().orElseThrow()
                .getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow();
        assertThat(failure).isInstanceOf(ResourceBudgetExceededError.class)
                .hasMessageContaining("cpuTime regressed: baseline ").hasMessageContaining("tolerance 10 %)");
        // durations print as everywhere: "850 ms", "1.2 s", "1m 5s"
        String duration = "([0-9.]+ m?s|[0-9]+m(?: [0-9]+s)?)";
        Matcher step = Pattern.compile("cpuTime regressed: baseline " + duration + ", now " + duration
                + " \\(\\+([0-9.]+) %").matcher(failure.getMessage());
        assertThat(step.find()).as(failure.getMessage()).isTrue();
        double[] before = printedSeconds(step.group(1));
        double[] now = printedSeconds(step.group(2));
        double percent = Double.parseDouble(step.group(3));
        // the figures print rounded (tenths of a second), the change comes from the unrounded ones
        assertThat(percent).as("the printed change agrees with the printed figures")
                .isBetween((now[0] / before[1] - 1) * 100 - 0.1, (now[1] / before[0] - 1) * 100 + 0.1);
        assertThat(percent).as("twice the work, measured on a busy machine").isBetween(25.0, 300.0);

        EngineExecutionResults warning = run(BaselineTestCases.class, Map.of(
                "vitals.reportDir", dir.resolve("r3").toString(), "vitals.baseline", baseline.toString(),
                "vitals.tolerance", "10%", "vitals.baseline.mode", "warn"));
        warning.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
        assertThat(Files.readString(dir.resolve("r3").resolve("summary.md"))).contains("cpuTime regressed");
    }

    /** The interval of seconds a printed duration ("850 ms", "1.2 s", "1m 5s") stands for, given its rounding. */
    private static double[] printedSeconds(String printed) {
        double seconds = DurationParser.parse(printed.replace(" ", "")).toNanos() / 1e9;
        double halfStep = printed.endsWith(" ms") ? 0.0005 : printed.contains(".") ? 0.05 : 0.5;
        return new double[] {seconds - halfStep, seconds + halfStep};
    }

    @MeasureResources
    static class MeasuredTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("1GiB");

        @org.junit.jupiter.api.Test
        void allocates(ResourceMonitor monitor) throws Exception {
            stress.sh("dd if=/dev/zero bs=220M count=1 iflag=fullblock 2>/dev/null"
                    + " | { head -c 1 >/dev/null; sleep 0.3; }");
            SEEN.put("allocates", monitor.usage());
        }

        @org.junit.jupiter.api.Test
        @io.vitals.ResourceBudget(peakMemory = "10MiB")
        void breaksItsBudget() throws Exception {
            stress.sh("dd if=/dev/zero bs=50M count=1 iflag=fullblock 2>/dev/null"
                    + " | { head -c 1 >/dev/null; sleep 0.3; }");
        }
    }

    @MeasureResources
    static class OwnContainer {

        @Container
        final StressContainer own = new StressContainer();

        @org.junit.jupiter.api.Test
        void allocatesInItsOwn() throws Exception {
            own.sh("dd if=/dev/zero bs=120M count=1 iflag=fullblock 2>/dev/null"
                    + " | { head -c 1 >/dev/null; sleep 0.3; }");
        }
    }

    @MeasureResources
    static class OneQuickTest {

        @Container
        static final StressContainer stress = new StressContainer();

        @org.junit.jupiter.api.Test
        void quick() {
        }
    }

    @MeasureResources
    static class BaselineTestCases {

        @Container
        static final StressContainer stress = new StressContainer();

        @org.junit.jupiter.api.Test
        void work() throws Exception {
            stress.sh("stress-ng --cpu 1 --cpu-method int64 --cpu-ops " + ops + " --quiet");
        }
    }
}
