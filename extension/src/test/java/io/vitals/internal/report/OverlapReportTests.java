package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Baseline;
import io.vitals.internal.regression.baseline.BaselineComparator;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.history.Measurements;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.console.ConsoleJsonLine;
import io.vitals.internal.report.console.ConsoleTable;
import io.vitals.internal.report.html.HtmlReport;
import io.vitals.internal.report.json.RunIndexWriter;
import io.vitals.internal.report.json.TestJsonReader;
import io.vitals.internal.report.json.TestJsonWriter;
import io.vitals.internal.report.markdown.MarkdownSummary;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.prometheus.PrometheusWriter;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A container whose window overlapped other tests' on a shared container: every format marks it and names the
 * other tests, and no history, baseline or suggestion takes its figures. Beside it, a test alone on its container
 * is not marked.
 */
@DisplayName("Overlapped figures in the reports")
class OverlapReportTests {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory JSON = new JsonFactory();
    private static final String CLASS = "com.example.SharedTests";

    private final TestResult overlapped = ReportFixtures.overlapped(ReportFixtures.result(CLASS, "first"),
            "second()", "third()");
    private final TestResult alone = ReportFixtures.result(CLASS, "alone");
    private final RunReport run = new RunReport(Instant.EPOCH, List.of(
            new RunReport.Entry(overlapped, "c/first.json", RegressionVerdict.none("k1")),
            new RunReport.Entry(alone, "c/alone.json", RegressionVerdict.none("k2"))), Optional.empty());

    @Test
    @DisplayName("the sentence names every other test with its class, and what to do")
    void sentence() {
        assertThat(overlapped.containers().get(0).overlap().sentence("tf")).isEqualTo("this window overlapped with "
                + "second() (com.example.SharedTests) and third() (com.example.SharedTests) on container 'tf': their "
                + "usage is included; run them one at a time or give each its own container for exact figures");
    }

    @Test
    @DisplayName("per-test JSON: overlappedWith names the other tests, is empty when alone, and fits the schema")
    void testJson() throws IOException {
        JsonNode marked = MAPPER.readTree(new TestJsonWriter(JSON).write(overlapped));
        JsonNode unmarked = MAPPER.readTree(new TestJsonWriter(JSON).write(alone));

        assertThat(marked.at("/containers/0/overlappedWith/0/displayName").asText()).isEqualTo("second()");
        assertThat(marked.at("/containers/0/overlappedWith/1/displayName").asText()).isEqualTo("third()");
        assertThat(marked.at("/containers/0/overlappedWith/1/className").asText()).isEqualTo(CLASS);
        assertThat(unmarked.at("/containers/0/overlappedWith").isArray()).isTrue();
        assertThat(unmarked.at("/containers/0/overlappedWith")).isEmpty();
        assertThat(SchemaSupport.testSchema().validate(marked)).isEmpty();
        assertThat(SchemaSupport.testSchema().validate(unmarked)).isEmpty();
    }

    @Test
    @DisplayName("per-test JSON read back and written again is the same bytes")
    void roundTrip() throws IOException {
        TestJsonWriter writer = new TestJsonWriter(JSON);
        byte[] json = writer.write(overlapped);

        TestResult read = new TestJsonReader(MAPPER).read(json, "first.json");

        assertThat(read.containers().get(0).overlap()).isEqualTo(overlapped.containers().get(0).overlap());
        assertThat(new String(writer.write(read), StandardCharsets.UTF_8))
                .isEqualTo(new String(json, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("run index: overlappedWith on the container entry")
    void runIndex() throws IOException {
        JsonNode index = MAPPER.readTree(new RunIndexWriter(JSON).write(run));

        assertThat(index.at("/tests/0/containers/0/overlappedWith/0/displayName").asText()).isEqualTo("second()");
        assertThat(index.at("/tests/1/containers/0/overlappedWith")).isEmpty();
    }

    @Test
    @DisplayName("HTML: a badge on the row, a note on the test and a line under Needs attention")
    void html() {
        String html = new HtmlReport().write(run);

        assertThat(html).contains(">overlapped</span>");
        assertThat(html).contains("<p class=\"overlap\"><b>Overlapped:</b> this window overlapped with second() "
                + "(com.example.SharedTests) and third() (com.example.SharedTests) on container &#39;tf&#39;");
        assertThat(html).containsOnlyOnce("<p class=\"overlap\">");
        assertThat(html).contains("<li class=\"warn\">Overlapped: ");
    }

    @Test
    @DisplayName("summary.md: the row is marked, the mark explained under the table, the tests named")
    void markdown() {
        List<String> lines = new MarkdownSummary().write(run).lines().toList();

        assertThat(lines).anyMatch(l -> l.startsWith("| first ") && l.contains("| tf † |"));
        assertThat(lines).anyMatch(l -> l.startsWith("| alone ") && l.contains("| tf |"));
        assertThat(lines).anyMatch(l -> l.startsWith("† Overlapped: "));
        assertThat(lines).anyMatch(l -> l.contains("**Overlapped**") && l.contains("second() (com.example.SharedTests)"
                + " and third() (com.example.SharedTests)"));
    }

    @Test
    @DisplayName("console JSON lines: the overlapped container names the other tests; a test alone has none")
    void consoleJson() throws IOException {
        ConsoleJsonLine line = new ConsoleJsonLine(JSON);
        JsonNode marked = MAPPER.readTree(line.render(run.tests().get(0))).at("/containers/0/overlappedWith");
        JsonNode unmarked = MAPPER.readTree(line.render(run.tests().get(1))).at("/containers/0/overlappedWith");

        assertThat(marked).extracting(t -> t.get("displayName").asText()).containsExactly("second()", "third()");
        assertThat(marked).extracting(t -> t.get("className").asText()).containsOnly(CLASS);
        assertThat(unmarked.isArray()).isTrue();
        assertThat(unmarked).isEmpty();
    }

    @Test
    @DisplayName("console: the container is marked and a line under the table names the other tests")
    void console() {
        List<String> lines = new ConsoleTable().render(List.of(overlapped, alone)).lines().toList();

        assertThat(lines).anyMatch(l -> l.startsWith("first ") && l.contains("tf *"));
        assertThat(lines).anyMatch(l -> l.startsWith("alone ") && !l.contains("tf *"));
        assertThat(lines).contains("* first: this window overlapped with second() (com.example.SharedTests) and "
                + "third() (com.example.SharedTests) on container 'tf': their usage is included; run them one at a "
                + "time or give each its own container for exact figures");
    }

    @Test
    @DisplayName("vitals.prom: a sample of vitals_container_overlapped_tests for the overlapped container only")
    void prometheus() {
        String prom = new PrometheusWriter(PrometheusSeries.TEST).write(run);

        assertThat(prom).contains("# TYPE vitals_container_overlapped_tests gauge");
        assertThat(prom.lines().filter(l -> l.startsWith("vitals_container_overlapped_tests{")).toList())
                .singleElement().satisfies(l -> assertThat(l).contains("test=\"first\"").endsWith("} 2"));
    }

    @Test
    @DisplayName("history and suggestions: an overlapped container has no measurements, one alone has")
    void history() {
        assertThat(Measurements.of(overlapped)).isEmpty();
        assertThat(Measurements.of(alone)).isNotEmpty();
    }

    @Test
    @DisplayName("baseline: an overlapped run neither updates the stored figures nor is compared with them")
    void baseline() {
        Baseline stored = Baseline.empty().withRun(List.of(ReportFixtures.result(CLASS, "first")), 5);
        String key = ReportNames.testKey(overlapped);
        // ten times the figures: a regression, were it compared
        TestResult heavier = ReportFixtures.overlapped(ReportFixtures.result(CLASS, "first", Optional.empty(), 10),
                "second()");

        Baseline after = stored.withRun(List.of(heavier), 5);
        RegressionVerdict verdict = new BaselineComparator(stored, Tolerances.uniform(Percentage.of(10)), true)
                .compare(heavier);
        RegressionVerdict unmarked = new BaselineComparator(stored, Tolerances.uniform(Percentage.of(10)), true)
                .compare(ReportFixtures.result(CLASS, "first", Optional.empty(), 10));

        assertThat(after).isEqualTo(stored);
        assertThat(after.history(key, "tf", Metric.PEAK_MEMORY)).hasSize(1);
        assertThat(Baseline.empty().withRun(List.of(heavier), 5).contains(key)).isFalse();
        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.newContainers()).isEmpty();
        assertThat(verdict.failsTest()).isFalse();
        assertThat(unmarked.hasRegressions()).as("the same figures unmarked regress").isTrue();
    }
}
