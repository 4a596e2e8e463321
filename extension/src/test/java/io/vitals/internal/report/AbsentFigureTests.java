package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ProbeKind;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Baseline;
import io.vitals.internal.regression.baseline.BaselineComparator;
import io.vitals.internal.regression.baseline.BaselineFile;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.Measurements;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.regression.suggest.HistorySuggestions;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.console.ConsoleTable;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonReader;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.result.Exactness;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A figure the host did not measure is absent in every format, never 0 (issue 20): block write on cgroup v1 (the
 * 64 MiB fsync'd write this project's v1 host counts as 0 B), block I/O the Engine API reports as 0, and OOM kills
 * from the Engine API, which counts none. A figure that was measured as 0 (cgroup v2) stays 0.
 */
class AbsentFigureTests {

    private static final DataSize READ = DataSize.ofMiB(5);
    private static final DataSize WRITTEN = DataSize.ofMiB(64);

    private final ObjectMapper mapper = new ObjectMapper();

    private static TestResult onV1(String method) {
        // what the v1 host counted for the fsync'd write: nothing
        return ReportFixtures.measuredBy(ReportFixtures.result("com.example.IoTests", method), ProbeKind.HOST_CGROUP_V1,
                READ, DataSize.ZERO);
    }

    private static TestResult onV2(String method, DataSize written) {
        return ReportFixtures.measuredBy(ReportFixtures.result("com.example.IoTests", method), ProbeKind.HOST_CGROUP_V2,
                READ, written);
    }

    private static TestResult onEngineApi(String method) {
        return ReportFixtures.measuredBy(ReportFixtures.result("com.example.IoTests", method), ProbeKind.ENGINE_API,
                DataSize.ZERO, DataSize.ZERO);
    }

    private static RunReport run(TestResult... results) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x/" + r.methodName() + ".json", RegressionVerdict.none("k")));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    private static String blockIoCell(String table) {
        List<String> lines = table.lines().toList();
        int from = lines.get(0).indexOf("BLOCK I/O");
        int to = lines.get(0).indexOf("PIDS");
        return lines.get(1).substring(from, to).strip();
    }

    @Test
    @DisplayName("the one source: block write on cgroup v1 is not measured, with the reason budgets give; v2 is")
    void oneSource() {
        ReportedFigure v1 = ReportedFigure.of(Metric.BLOCK_WRITE, onV1("w").containers().get(0).usage());
        ReportedFigure v2 = ReportedFigure.of(Metric.BLOCK_WRITE, onV2("w", DataSize.ZERO).containers().get(0)
                .usage());

        assertThat(v1.value()).isEmpty();
        assertThat(v1.notMeasured()).hasValueSatisfying(why -> assertThat(why).contains("cgroup v1"));
        assertThat(v1.missing("--", ReportedFigure.NOT_MEASURED_HERE)).isEqualTo("not measured here");
        assertThat(v2.value()).hasValue(0.0);
        assertThat(v2.isNotMeasured()).isFalse();
        // the exactness cell agrees, as it asks the same rule
        assertThat(Exactness.of(onV1("w").containers().get(0).usage(), true).cell(Exactness.Column.BLOCK_WRITE)
                .orElseThrow().reason()).isEqualTo(v1.notMeasured());
    }

    @Test
    @DisplayName("console: BLOCK I/O shows -- for the write on cgroup v1, never 0B; 0B where v2 counted none")
    void console() {
        assertThat(blockIoCell(new ConsoleTable().render(List.of(onV1("w"))))).isEqualTo("5MiB / --");
        assertThat(blockIoCell(new ConsoleTable().render(List.of(onV2("w", DataSize.ZERO))))).isEqualTo("5MiB / 0B");
        assertThat(blockIoCell(new ConsoleTable().render(List.of(onEngineApi("w"))))).isEqualTo("-- / --");
    }

    @Test
    @DisplayName("per-test JSON: null with the reason beside it, valid, and the same after a read back")
    void testJson() throws Exception {
        TestJsonWriter writer = new TestJsonWriter(new JsonFactory());
        byte[] bytes = writer.write(onV1("w"));
        JsonNode json = mapper.readTree(bytes);

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        JsonNode usage = json.at("/containers/0/usage");
        assertThat(usage.get("blockWriteBytes").isNull()).isTrue();
        assertThat(usage.get("blockWriteBytesUnavailable").asText()).contains("cgroup v1");
        assertThat(usage.get("blockReadBytes").asLong()).isEqualTo(READ.toBytes());
        assertThat(json.at("/containers/0/exactness/blockWrite/cell").asText()).isEqualTo("unavailable");
        // the raw counters behind it too: a snapshot's or the timeline's 0 would say the same as the usage's
        assertThat(json.at("/containers/0/before/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/containers/0/after/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/containers/0/timeline/blockWriteBytes").isNull()).isTrue();
        assertThat(json.at("/containers/0/timeline/blockReadBytes").isArray()).isTrue();
        byte[] again = writer.write(new TestJsonReader(mapper).read(bytes, "w.json"));
        assertThat(new String(again, StandardCharsets.UTF_8)).isEqualTo(new String(bytes, StandardCharsets.UTF_8));

        JsonNode v2 = mapper.readTree(writer.write(onV2("w", DataSize.ZERO)));
        assertThat(v2.at("/containers/0/usage/blockWriteBytes").isNumber()).isTrue();
        assertThat(v2.at("/containers/0/usage/blockWriteBytes").asLong()).isZero();
        assertThat(v2.at("/containers/0/usage").has("blockWriteBytesUnavailable")).isFalse();
        assertThat(v2.at("/containers/0/after/blockWriteBytes").isNumber()).isTrue();
        assertThat(v2.at("/containers/0/timeline/blockWriteBytes").isArray()).isTrue();
    }

    @Test
    @DisplayName("Engine API: zero block I/O and the OOM kill count are null with a reason, and valid")
    void engineApiJson() throws Exception {
        JsonNode json = mapper.readTree(new TestJsonWriter(new JsonFactory()).write(onEngineApi("w")));

        assertThat(SchemaSupport.testSchema().validate(json)).isEmpty();
        JsonNode usage = json.at("/containers/0/usage");
        assertThat(usage.get("blockReadBytes").isNull()).isTrue();
        assertThat(usage.get("blockWriteBytes").isNull()).isTrue();
        assertThat(usage.get("oomKills").isNull()).isTrue();
        assertThat(usage.get("oomKillsUnavailable").asText()).contains("Engine API");
        assertThat(json.at("/containers/0/after/oomKills").isNull()).isTrue();
        assertThat(json.at("/containers/0/timeline/blockReadBytes").isNull()).isTrue();
        assertThat(json.at("/containers/0/exactness/oomKills/reason").asText())
                .isEqualTo(usage.get("oomKillsUnavailable").asText());
    }

    @Test
    @DisplayName("vitals.json: null with the reason, as in the per-test JSON")
    void runIndex() throws Exception {
        JsonNode index = mapper.readTree(new RunIndexWriter(new JsonFactory()).write(run(onV1("w"))));
        JsonNode container = index.at("/tests/0/containers/0");

        assertThat(container.get("blockWriteBytes").isNull()).isTrue();
        assertThat(container.get("blockWriteBytesUnavailable").asText()).contains("cgroup v1");
        assertThat(container.get("blockReadBytes").asLong()).isEqualTo(READ.toBytes());
    }

    @Test
    @DisplayName("index.html: the cell says not measured here, the reason on hover; v2's 0 stays 0 B")
    void html() {
        String html = new HtmlReport().write(run(onV1("w")));

        assertThat(html).containsPattern("<span class=\"absent\" title=\"blockWrite cannot be measured here: cgroup "
                + "v1 [^\"]+\">not measured here</span>");
        assertThat(new HtmlReport().write(run(onV2("w", DataSize.ZERO)))).doesNotContain("not measured here");
        assertThat(new HtmlReport().write(run(onEngineApi("w")))).contains("OOM kills <span class=\"absent\" "
                + "title=\"The Docker Engine API&#39;s stats count no OOM kills");
    }

    @Test
    @DisplayName("summary.md: the cell says not measured here, a footnote says why, once for every such cell")
    void markdown() {
        String md = new MarkdownSummary().write(run(onV1("a"), onV1("b")));

        List<String> rows = md.lines().filter(l -> l.startsWith("| a | ") || l.startsWith("| b | ")).toList();
        assertThat(rows).hasSize(2).allSatisfy(row -> assertThat(row).contains(" | not measured here[^nm1] | ")
                .doesNotContain("| 0 B |"));
        // (the fixture's 10 s window is just short of a memory trend: that footnote is another rule's)
        assertThat(md.lines().filter(l -> l.startsWith("[^nm") && !l.contains(Measurability.TOO_SHORT_FOR_TREND))
                .toList()).singleElement()
                .satisfies(note -> assertThat(note)
                        .startsWith("[^nm1]: blockWrite cannot be measured here: cgroup v1"));
        assertThat(new MarkdownSummary().write(run(onV2("a", DataSize.ZERO)))).doesNotContain("not measured here")
                .doesNotContain("cannot be measured here");
    }

    @Test
    @DisplayName("vitals.prom: no sample for the write on cgroup v1 (the family goes where no container has one)")
    void prometheus() {
        String prom = new PrometheusWriter(PrometheusSeries.TEST).write(run(onV1("w")));

        assertThat(prom).doesNotContain("vitals_container_block_write_bytes_total")
                .contains("vitals_container_block_read_bytes_total{").contains("vitals_container_oom_kills_total{");
        String both = new PrometheusWriter(PrometheusSeries.TEST).write(run(onV1("a"), onV2("b", DataSize.ZERO)));
        assertThat(both.lines().filter(l -> l.startsWith("vitals_container_block_write_bytes_total{")).toList())
                .singleElement().satisfies(l -> assertThat(l).contains("test=\"b\"").endsWith("} 0"));
        assertThat(new PrometheusWriter(PrometheusSeries.TEST).write(run(onEngineApi("w"))))
                .doesNotContain("vitals_container_oom_kills")
                .doesNotContain("vitals_container_block_read_bytes_total");
    }

    @Test
    @DisplayName("baseline: the write on cgroup v1 is not stored, the earlier values stay; the read is")
    void baseline() throws Exception {
        TestResult v1 = onV1("w");
        String key = ReportNames.testKey(v1);
        Baseline earlier = new Baseline(Map.of(key, Map.of("tf", Map.of(Metric.BLOCK_WRITE,
                List.of((double) WRITTEN.toBytes())))));

        Baseline next = earlier.withRun(List.of(v1), 5);

        assertThat(next.history(key, "tf", Metric.BLOCK_WRITE)).containsExactly((double) WRITTEN.toBytes());
        assertThat(next.history(key, "tf", Metric.BLOCK_READ)).containsExactly((double) READ.toBytes());
        String file = new BaselineFile(mapper).toJson(Baseline.empty().withRun(List.of(v1), 5));
        assertThat(file).doesNotContain("blockWrite").contains("blockRead");
    }

    @Test
    @DisplayName("baseline comparison: a stored 64 MiB against the write cgroup v1 did not measure is no finding")
    void baselineComparison() {
        TestResult v1 = onV1("w");
        Map<Metric, List<Double>> stored = new java.util.EnumMap<>(Metric.class);
        Metric.compared().forEach(m -> m.value(v1.containers().get(0).usage()).ifPresent(v -> stored.put(m,
                List.of(v))));
        stored.put(Metric.BLOCK_WRITE, List.of((double) WRITTEN.toBytes()));
        Baseline baseline = new Baseline(Map.of(ReportNames.testKey(v1), Map.of("tf", stored)));

        RegressionVerdict verdict = new BaselineComparator(baseline, Tolerances.uniform(Percentage.of(10)), true)
                .compare(v1);

        assertThat(verdict.findings()).extracting(f -> f.metric().key()).doesNotContain("blockWrite");
        // the comparison itself ran: a v2 run that wrote nothing is an improvement on the stored 64 MiB
        assertThat(new BaselineComparator(baseline, Tolerances.uniform(Percentage.of(10)), true)
                .compare(onV2("w", DataSize.ZERO)).findings()).extracting(f -> f.metric().key())
                .contains("blockWrite");
    }

    @Test
    @DisplayName("history and suggested budgets: the write on cgroup v1 is no measurement and no budget")
    void historyAndSuggestions() {
        assertThat(Measurements.of(onV1("w")).keySet()).extracting(HistoryKey::metric)
                .doesNotContain("blockWrite").contains("blockRead");
        assertThat(Measurements.of(onEngineApi("w")).keySet()).extracting(HistoryKey::metric)
                .doesNotContain("blockWrite", "blockRead");

        Map<HistoryKey, List<Double>> fiveRuns = new TreeMap<>();
        for (int i = 0; i < 5; i++) {
            Measurements.of(onV1("w")).forEach((k, v) -> fiveRuns.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        List<BudgetSuggestion> suggestions = HistorySuggestions.suggest(builds(fiveRuns));
        assertThat(suggestions).extracting(BudgetSuggestion::attribute).doesNotContain("blockWrite")
                .contains("blockRead");
        // where the figure was measured, its 0 is a measurement and may be suggested
        Map<HistoryKey, List<Double>> v2Runs = new TreeMap<>();
        for (int i = 0; i < 5; i++) {
            Measurements.of(onV2("w", WRITTEN)).forEach((k, v) -> v2Runs.computeIfAbsent(k, x -> new ArrayList<>())
                    .add(v));
        }
        assertThat(HistorySuggestions.suggest(builds(v2Runs))).extracting(BudgetSuggestion::attribute).contains("blockWrite");
    }

    private static Map<HistoryKey, BudgetSuggester.Builds> builds(Map<HistoryKey, List<Double>> values) {
        Map<HistoryKey, BudgetSuggester.Builds> builds = new TreeMap<>();
        values.forEach((key, list) -> builds.put(key, new BudgetSuggester.Builds("tb-test", list,
                java.util.OptionalLong.empty())));
        return builds;
    }
}
