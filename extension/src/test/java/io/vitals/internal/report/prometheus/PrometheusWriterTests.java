package io.vitals.internal.report.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.report.ReportFixtures;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

public class PrometheusWriterTests {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)");
    // A label value: any characters except unescaped quote, backslash and line feed.
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    /** A strict parser of the text format: fails on anything the format does not allow. */
    public static List<Sample> parse(String text) {
        assertThat(text).endsWith("\n");
        Set<String> helped = new HashSet<>();
        Map<String, String> typed = new HashMap<>();
        Set<String> sampled = new HashSet<>();
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                String name = line.substring(7).split(" ", 2)[0];
                assertThat(name).matches(NAME);
                assertThat(helped.add(name)).as("HELP once for " + name).isTrue();
                assertThat(sampled).as("HELP before samples of " + name).doesNotContain(name);
            } else if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                assertThat(parts).hasSize(2);
                assertThat(parts[0]).matches(NAME);
                assertThat(parts[1]).isIn("counter", "gauge", "histogram", "summary", "untyped");
                assertThat(typed.put(parts[0], parts[1])).as("TYPE once for " + parts[0]).isNull();
                assertThat(sampled).as("TYPE before samples of " + parts[0]).doesNotContain(parts[0]);
                if (parts[1].equals("counter")) {
                    assertThat(parts[0]).endsWith("_total");
                }
            } else {
                assertThat(line).doesNotStartWith("#");
                Matcher m = SAMPLE.matcher(line);
                assertThat(m.matches()).as("sample line: " + line).isTrue();
                String name = m.group(1);
                assertThat(typed).as("TYPE before first sample of " + name).containsKey(name);
                sampled.add(name);
                Map<String, String> labels = new HashMap<>();
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    int end = 0;
                    while (l.find() && l.start() == end) {
                        assertThat(labels.put(l.group(1), unescape(l.group(2)))).isNull();
                        end = l.end();
                    }
                    assertThat(end).as("labels parse fully: " + m.group(3)).isEqualTo(m.group(3).length());
                }
                samples.add(new Sample(name, labels, Double.parseDouble(m.group(4))));
            }
        }
        return samples;
    }

    private static String unescape(String value) {
        return value.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
    }

    private static RunReport run(TestResult... results) {
        List<RunReport.Entry> entries = new ArrayList<>();
        for (TestResult r : results) {
            entries.add(new RunReport.Entry(r, "x.json", RegressionVerdict.none("k")));
        }
        return new RunReport(Instant.EPOCH, entries, Optional.empty());
    }

    @Test
    @DisplayName("a skipped test is no failure, and has a vitals_test_skipped sample")
    void skipped() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult skipped = ReportFixtures.unmeasured("com.example.TrainTests", "gpu", TestResult.Outcome.SKIPPED,
                "no GPU", ReportFixtures.START, java.time.Duration.ZERO);

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.TEST).write(run(ok, skipped)));

        assertThat(samples).filteredOn(s -> s.name().equals("vitals_test_skipped"))
                .singleElement().satisfies(s -> {
                    assertThat(s.labels()).containsEntry("test", "gpu");
                    assertThat(s.value()).isEqualTo(1);
                });
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_test_failed"))
                .extracting(Sample::value).containsExactly(0.0, 0.0);
    }

    @Test
    @DisplayName("the file parses strictly, with HELP and TYPE once per metric and base-unit values")
    void parsesStrictly() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.TEST).write(run(ok, oom)));

        Sample peak = samples.stream().filter(s -> s.name().equals("vitals_container_memory_peak_bytes")
                && s.labels().get("test").equals("train")).findFirst().orElseThrow();
        assertThat(peak.labels()).containsEntry("class", "com.example.TrainTests").containsEntry("container", "tf");
        assertThat(peak.value()).isEqualTo(ok.containers().get(0).usage().peakMemory().toBytes());
        assertThat(samples).anySatisfy(s -> {
            assertThat(s.name()).isEqualTo("vitals_budget_breached");
            assertThat(s.labels()).containsEntry("test", "oom").containsEntry("budget", "peakMemory");
            assertThat(s.value()).isEqualTo(1);
        });
        assertThat(samples).extracting(Sample::name).contains("vitals_container_cpu_seconds_total",
                "vitals_container_cpu_throttled_seconds_total", "vitals_container_block_read_bytes_total",
                "vitals_container_oom_kills_total", "vitals_test_duration_seconds",
                "vitals_container_memory_limit_bytes", "vitals_container_pressure_stall_seconds_total");
        assertThat(samples.stream().filter(s -> s.name().equals("vitals_test_duration_seconds")).findFirst()
                .orElseThrow().value()).isEqualTo(10.25);
    }

    @Test
    @DisplayName("label values escape backslash, quote and line feed")
    void escapesLabels() {
        TestResult tricky = ReportFixtures.result("com.example.Tricky", "odd", Optional.of("[1] a\"b\\c\nd"), 1.0);

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.TEST).write(run(tricky)));

        assertThat(samples.get(0).labels().get("test")).isEqualTo("odd [1] a\"b\\c\nd");
        assertThat(PrometheusWriter.escape("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\nd");
    }

    @Test
    @DisplayName("class: one series per class and container, counters summed, gauges at their worst test's value")
    void perClass() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");
        TestResult other = ReportFixtures.result("com.example.OtherTests", "other");

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.CLASS).write(run(ok, oom, other)));

        assertThat(samples).allSatisfy(s -> assertThat(s.labels()).doesNotContainKey("test"));
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_class_tests"))
                .extracting(s -> s.labels().get("class") + "=" + s.value())
                .containsExactly("com.example.TrainTests=2.0", "com.example.OtherTests=1.0");
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_class_budgets_breached")
                && s.labels().get("class").equals("com.example.TrainTests")).singleElement()
                .satisfies(s -> assertThat(s.value()).isEqualTo(1));
        double okPeak = ok.containers().get(0).usage().peakMemory().toBytes();
        double oomPeak = oom.containers().get(0).usage().peakMemory().toBytes();
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_class_container_memory_peak_bytes")
                && s.labels().get("class").equals("com.example.TrainTests")).singleElement()
                .satisfies(s -> assertThat(s.value()).isEqualTo(Math.max(okPeak, oomPeak)));
        double cpu = ok.containers().get(0).usage().cpuTime().toNanos() / 1e9
                + oom.containers().get(0).usage().cpuTime().toNanos() / 1e9;
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_class_container_cpu_seconds_total")
                && s.labels().get("class").equals("com.example.TrainTests")).singleElement()
                .satisfies(s -> assertThat(s.value()).isCloseTo(cpu, org.assertj.core.data.Offset.offset(1e-9)));
    }

    @Test
    @DisplayName("breached: the per-class series, and every series of the test that breached, of no other test")
    void breachedTestsOnly() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.BREACHED).write(run(ok, oom)));

        assertThat(samples).filteredOn(s -> s.labels().containsKey("test")).isNotEmpty()
                .allSatisfy(s -> assertThat(s.labels()).containsEntry("test", "oom"));
        assertThat(samples).extracting(Sample::name).contains("vitals_budget_breached",
                "vitals_container_memory_peak_bytes", "vitals_class_tests", "vitals_class_container_memory_peak_bytes");
        assertThat(parse(new PrometheusWriter(PrometheusSeries.BREACHED).write(run(ok))))
                .allSatisfy(s -> assertThat(s.labels()).doesNotContainKey("test"));
    }

    @Test
    @DisplayName("test: every test's series and no per-class series, as before the setting")
    void everyTest() {
        TestResult ok = ReportFixtures.result("com.example.TrainTests", "train");
        TestResult oom = ReportFixtures.oomKilled("com.example.TrainTests", "oom");

        List<Sample> samples = parse(new PrometheusWriter(PrometheusSeries.TEST).write(run(ok, oom)));

        assertThat(samples).extracting(Sample::name).noneMatch(n -> n.startsWith("vitals_class_"));
        assertThat(samples).filteredOn(s -> s.name().equals("vitals_test_duration_seconds"))
                .extracting(s -> s.labels().get("test")).containsExactly("train", "oom");
    }

    @Test
    @DisplayName("the strict parser itself rejects a sample before its TYPE")
    void parserIsStrict() {
        assertThatThrownBy(() -> parse("vitals_x 1\n# TYPE vitals_x gauge\n")).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> parse("# TYPE 1bad gauge\n")).isInstanceOf(AssertionError.class);
    }
}
