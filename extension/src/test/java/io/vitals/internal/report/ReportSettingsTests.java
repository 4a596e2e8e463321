package io.vitals.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistorySettings;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.settings.InvalidSettingException;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportSettingsTests {

    private static ReportSettings parse(Map<String, String> values) {
        return ReportSettings.from(key -> Optional.ofNullable(values.get(key)));
    }

    @Test
    @DisplayName("defaults: target/vitals, table, no baseline, fail mode, 1 run, 10 % except wall time")
    void defaults() {
        ReportSettings s = ReportSettings.defaults();
        assertThat(s.reportDir()).isEqualTo(Path.of("target/vitals"));
        assertThat(s.console()).isEqualTo(ReportSettings.ConsoleMode.TABLE);
        assertThat(s.baseline()).isEmpty();
        assertThat(s.baselineUpdate()).isFalse();
        assertThat(s.baselineMode()).isEqualTo(ReportSettings.BaselineMode.FAIL);
        assertThat(s.baselineRuns()).isEqualTo(1);
        assertThat(s.tolerances().of(Metric.PEAK_MEMORY)).contains(Percentage.of(10));
        assertThat(s.tolerances().of(Metric.WALL_TIME)).isEmpty();
        assertThat(s.prometheusSeries()).isEqualTo(PrometheusSeries.BREACHED);
    }

    @Test
    @DisplayName("vitals.prometheus.series: class, breached or test, in any case; anything else names the words")
    void prometheusSeries() {
        assertThat(parse(Map.of("vitals.prometheus.series", "TEST")).prometheusSeries())
                .isEqualTo(PrometheusSeries.TEST);
        assertThat(parse(Map.of("vitals.prometheus.series", "class")).prometheusSeries())
                .isEqualTo(PrometheusSeries.CLASS);
        assertThatThrownBy(() -> parse(Map.of("vitals.prometheus.series", "all")))
                .hasMessageContaining("vitals.prometheus.series").hasMessageContaining("breached");
    }

    @Test
    @DisplayName("every key is read; a per-metric tolerance overrides the general one")
    void allKeys() {
        ReportSettings s = parse(Map.of(
                "vitals.reportDir", "build/vitals", "vitals.console", "JSON", "vitals.baseline", "vitals-baseline.json",
                "vitals.baseline.update", "true", "vitals.baseline.mode", "warn", "vitals.baseline.runs", "5",
                "vitals.tolerance", "20%", "vitals.tolerance.peakMemory", "5 %", "vitals.tolerance.blockRead", "off",
                "vitals.tolerance.wallTime", "50%"));
        assertThat(s.reportDir()).isEqualTo(Path.of("build/vitals"));
        assertThat(s.console()).isEqualTo(ReportSettings.ConsoleMode.JSON);
        assertThat(parse(Map.of("vitals.console", "full")).console()).isEqualTo(ReportSettings.ConsoleMode.FULL);
        assertThat(s.baseline()).contains(Path.of("vitals-baseline.json"));
        assertThat(s.baselineUpdate()).isTrue();
        assertThat(s.baselineMode()).isEqualTo(ReportSettings.BaselineMode.WARN);
        assertThat(s.baselineRuns()).isEqualTo(5);
        assertThat(s.tolerances().of(Metric.PEAK_MEMORY)).contains(Percentage.of(5));
        assertThat(s.tolerances().of(Metric.CPU_TIME)).contains(Percentage.of(20));
        assertThat(s.tolerances().of(Metric.BLOCK_READ)).isEmpty();
        assertThat(s.tolerances().of(Metric.WALL_TIME)).contains(Percentage.of(50));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "vitals.console; tabel; expected table, full, json or off",
            "vitals.baseline.mode; strict; expected fail or warn",
            "vitals.baseline.update; yes; expected true or false",
            "vitals.baseline.runs; 0; expected a whole number of at least 1, e.g. 5",
            "vitals.baseline.runs; three; expected a whole number of at least 1, e.g. 5",
            "vitals.tolerance; 10; expected a non-negative number followed by",
            "vitals.tolerance.cpuTime; -5%; expected a non-negative number followed by",
            "vitals.history.runs; 1; expected a whole number of at least 2, e.g. 20",
            "vitals.stats.alpha; 0.5; expected a significance level between 0 and 0.5, e.g. 0.05 or 0.01",
            "vitals.stats.alpha; five percent; expected a significance level between 0 and 0.5" })
    @DisplayName("a bad value names the key, the value and what is accepted")
    void badValues(String key, String value, String expected) {
        assertThatThrownBy(() -> parse(Map.of(key, value)))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith("Invalid value '" + value + "' for configuration parameter '" + key + "': ")
                .hasMessageContaining(expected);
    }

    @Test
    @DisplayName("a tolerance accepts a percentage or off, and says so")
    void toleranceOrOff() {
        assertThat(parse(Map.of("vitals.tolerance", "OFF")).tolerances().of(Metric.CPU_TIME)).isEmpty();
        assertThatThrownBy(() -> parse(Map.of("vitals.tolerance.peakMemory", "lots")))
                .hasMessageEndingWith("expected " + Percentage.ACCEPTED_FORMS + ", or off");
    }

    @Test
    @DisplayName("a blank value means the default, as an unset one does")
    void blankMeansDefault() {
        ReportSettings s = parse(Map.of("vitals.reportDir", " ", "vitals.console", "", "vitals.baseline", "  ",
                "vitals.baseline.update", "", "vitals.tolerance", " ", "vitals.history.runs", ""));
        assertThat(s).isEqualTo(ReportSettings.defaults());
    }

    @Test
    @DisplayName("the history keys are read")
    void historyKeys() {
        ReportSettings s = parse(Map.of("vitals.history", "h.jsonl", "vitals.history.update", "TRUE",
                "vitals.history.runs", "30", "vitals.stats.alpha", "0.01", "vitals.runId", " ci-42 "));
        assertThat(s.history()).isEqualTo(new HistorySettings(Optional.of(Path.of("h.jsonl")), true, 30, 0.01,
                Optional.of("ci-42")));
        assertThat(ReportSettings.defaults().history()).isEqualTo(new HistorySettings(Optional.empty(), false,
                HistorySettings.DEFAULT_KEEP, HistorySettings.DEFAULT_ALPHA, Optional.empty()));
    }
}
