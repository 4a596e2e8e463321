package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.console.ConsoleJsonLine;
import io.vitals.internal.report.console.ConsoleTable;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.report.prometheus.PrometheusWriterTests;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every figure in every report format: one fixture run in which every {@link Metric} is known is rendered through
 * the per-test JSON, the run index, the HTML page, summary.md, vitals.prom and the console (table and JSON line),
 * and each metric must show up in each, where that format puts figures (a JSON field, a table cell, a Prometheus
 * family). A metric added without a place in some format fails here, naming both.
 */
class MetricReportCoverageTests {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory JSON = new JsonFactory();

    private static TestResult result;
    private static ResourceUsage usage;
    private static RunReport run;

    @BeforeAll
    static void render() {
        // 12 s of samples: long enough for memory growth to be printed as a rate (Measurability.trendTooShort)
        result = ReportFixtures.withPoints(ReportFixtures.result("com.example.CoverageTests", "train"), 241);
        usage = result.containers().get(0).usage();
        run = new RunReport(Instant.EPOCH, List.of(new RunReport.Entry(result, "c/train.json",
                RegressionVerdict.none("k"))), Optional.empty());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("the fixture knows every figure")
    void fixtureKnowsEveryFigure(Metric metric) {
        assertThat(metric.value(usage)).as("%s in the fixture", metric).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("per-test JSON: a field of usage")
    void testJson(Metric metric) throws IOException {
        JsonNode field = MAPPER.readTree(new TestJsonWriter(JSON).write(result)).at("/containers/0/usage")
                .get(metric.jsonField());

        assertThat(field).as("usage.%s", metric.jsonField()).isNotNull();
        assertThat(field.asDouble()).isCloseTo(metric.read(usage), offset(0.5));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("run index: a field of each container")
    void runIndex(Metric metric) throws IOException {
        JsonNode field = MAPPER.readTree(new RunIndexWriter(JSON).write(run)).at("/tests/0/containers/0")
                .get(metric.jsonField());

        assertThat(field).as("containers[].%s", metric.jsonField()).isNotNull();
        assertThat(field.asDouble()).isCloseTo(metric.read(usage), offset(0.5));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("HTML: a column of the table, with the figure as every report prints it")
    void html(Metric metric) {
        String html = new HtmlReport().write(run);
        String table = html.substring(html.indexOf("<table id=\"tests\""), html.indexOf("</table>",
                html.indexOf("<table id=\"tests\"")));
        String head = table.substring(0, table.indexOf("</thead>"));
        String row = table.substring(table.indexOf("<tbody>"));
        if (metric.isDetail()) {
            // a detail of another figure (the peak's composition) is in the test's section, not a table column
            assertThat(head).doesNotContain(">" + metric.heading() + "</th>");
            assertThat(html).contains(metric.format(metric.read(usage)));
            return;
        }

        // a column outside the key figures is there, hidden until "all figures" is ticked
        assertThat(head).containsPattern("<th( class=\"x\")?>" + java.util.regex.Pattern.quote(metric.heading())
                + "</th>");
        assertThat(row).contains(">" + metric.format(metric.read(usage)) + "</td>");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("summary.md: a column of the class table")
    void markdown(Metric metric) {
        List<String> lines = new MarkdownSummary().write(run).lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("| Test |")).findFirst().orElseThrow();
        String row = lines.stream().filter(l -> l.startsWith("| train ")).findFirst().orElseThrow();
        if (metric.isDetail()) {
            assertThat(header).doesNotContain("| " + metric.heading() + " |");
            return;
        }

        assertThat(header).contains("| " + metric.heading() + " |");
        assertThat(row).contains("| " + metric.format(metric.read(usage)) + " |");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("vitals.prom: its own family, with HELP, TYPE and the container's sample in the base unit")
    void prometheus(Metric metric) {
        String prom = new PrometheusWriter(PrometheusSeries.TEST).write(run);
        String name = metric.exported().name();

        assertThat(prom).contains("# HELP " + name + " ").contains("# TYPE " + name + " "
                + metric.exported().type().text() + "\n");
        assertThat(PrometheusWriterTests.parse(prom)).filteredOn(s -> s.name().equals(name)).singleElement()
                .satisfies(s -> {
                    assertThat(s.labels()).containsEntry("container", "tf");
                    assertThat(s.value()).isCloseTo(metric.unit().toPrometheus(metric.read(usage)),
                            offset(1e-6));
                });
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("console table: in docker's columns, or in a column of its own")
    void consoleTable(Metric metric) {
        List<String> lines = new ConsoleTable().render(List.of(result)).lines().toList();
        if (metric.isDetail()) {
            assertThat(lines.get(0)).doesNotContain(metric.label().toUpperCase(Locale.ROOT));
            return;
        }

        if (!ConsoleTable.IN_DOCKER_COLUMNS.contains(metric)) {
            assertThat(lines.get(0)).contains(metric.label().toUpperCase(Locale.ROOT));
        }
        assertThat(lines.get(1)).contains(ConsoleTable.docker(metric, usage));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("console JSON line: a field named by the key")
    void consoleJson(Metric metric) throws IOException {
        JsonNode container = MAPPER.readTree(new ConsoleJsonLine(JSON).render(run.tests().get(0)))
                .at("/containers/0");

        assertThat(container.get(metric.key())).as(metric.key()).isNotNull();
        assertThat(container.get(metric.key()).asDouble()).isCloseTo(metric.read(usage),
                offset(0.5));
    }

    /** A floor reads as a floor wherever a breach is listed: "memoryHeadroom 48.3% < 60%", never "> 60%". */
    @Nested
    @DisplayName("a memoryHeadroom breach")
    class HeadroomBreach {

        private RunReport breached() {
            return breached(Optional.empty());
        }

        /** The breach judged on the whole test's usage, and shown as {@code phase}'s if there is one. */
        private RunReport breached(Optional<String> phase) {
            ContainerResult c = result.containers().get(0);
            BudgetResult whole = BudgetEvaluator.evaluate(Limit.parse(Metric.MEMORY_HEADROOM, "60%"), c.usage());
            BudgetResult check = phase.map(whole::inPhase).orElse(whole);
            assertThat(check.passed()).isFalse();
            ContainerResult withBreach = new ContainerResult(c.name(), c.image(), c.limits(), c.usage(),
                    c.probeDescription(), c.hostShape(), c.measuredFromStart(), List.of(check), c.fault(),
                    c.logTail());
            TestResult r = new TestResult(result.uniqueId(), result.className(), result.methodName(),
                    result.displayName(), result.parameters(), TestResult.Outcome.FAILED, Optional.of("breach"),
                    result.startedAt(), result.duration(), List.of(withBreach));
            return new RunReport(Instant.EPOCH, List.of(new RunReport.Entry(r, "c/train.json",
                    RegressionVerdict.none("k"))), Optional.empty());
        }

        private String headroom() {
            return usage.memoryHeadroom().orElseThrow().toString();
        }

        @Test
        @DisplayName("reads 'below' in the run index")
        void runIndex() throws IOException {
            JsonNode breaches = MAPPER.readTree(new RunIndexWriter(JSON).write(breached())).at("/tests/0/breaches");

            assertThat(breaches).hasSize(1);
            assertThat(breaches.get(0).asText()).isEqualTo("tf: memoryHeadroom " + headroom() + " < 60%");
        }

        @Test
        @DisplayName("reads 'below' in the HTML page")
        void html() {
            String html = new HtmlReport().write(breached());

            // the breach, then its margin
            assertThat(html).containsPattern(java.util.regex.Pattern.quote(": memoryHeadroom " + headroom()
                    + " &lt; 60%") + "( <b class=\"margin\">\\([-+][0-9.]+ %\\)</b>)?</li>")
                    .doesNotContain(headroom() + " &gt; 60%").doesNotContain(headroom() + " over 60%");
        }

        @Test
        @DisplayName("reads 'below' in summary.md")
        void markdown() {
            String md = new MarkdownSummary().write(breached());

            assertThat(md).contains("**Budget breached** `com.example.CoverageTests#train` `tf`: memoryHeadroom "
                    + headroom() + " &lt; 60% (").doesNotContain("&gt; 60%").doesNotContain("over budget");
        }

        @Test
        @DisplayName("reads 'below' for a phase's budget too, in the run index, the HTML page and summary.md")
        void phase() throws IOException {
            RunReport report = breached(Optional.of("train"));
            String breach = "memoryHeadroom[train] " + headroom();

            assertThat(MAPPER.readTree(new RunIndexWriter(JSON).write(report)).at("/tests/0/breaches/0").asText())
                    .isEqualTo("tf: " + breach + " < 60%");
            // the breach, then its margin where it has one
            assertThat(new HtmlReport().write(report)).containsPattern(java.util.regex.Pattern.quote(": " + breach
                    + " &lt; 60%") + "( <b class=\"margin\">\\([-+][0-9.]+ %\\)</b>)?</li>")
                    .doesNotContain(breach + " &gt; 60%");
            // Markdown escapes the brackets
            assertThat(new MarkdownSummary().write(report)).contains("`tf`: memoryHeadroom\\[train\\] " + headroom()
                    + " &lt; 60% (").doesNotContain("&gt; 60%");
        }
    }
}
