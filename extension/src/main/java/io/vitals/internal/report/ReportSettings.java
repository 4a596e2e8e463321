package io.vitals.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.history.HistorySettings;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * Where and how reports are written, parsed once per run from configuration parameters.
 *
 * @param reportDir the directory every report goes to
 * @param console what is printed after each test class
 * @param baseline the baseline file to compare with (and to update), if any
 * @param baselineUpdate whether {@link ReportSession#close()} appends this run to the baseline
 * @param baselineMode whether a regression fails the test or only warns
 * @param baselineRuns how many runs the baseline keeps per test; the median of them is compared
 * @param tolerances how far each metric may move before it counts as a regression or an improvement; with a run
 *     history, the minimum effect
 * @param history the run history ({@link MeasureResources#HISTORY_KEY}) and its statistical comparison
 * @param prometheusSeries which tests get their own series in {@code vitals.prom}
 * @param expectedToFailBy the test that runs this run's tests as a fixture and expects them to fail
 *     ({@link MeasureResources#EXPECTED_TO_FAIL_BY_KEY}); empty for an ordinary run
 */
@API(status = INTERNAL, since = "0.1")
public record ReportSettings(
        Path reportDir,
        ConsoleMode console,
        Optional<Path> baseline,
        boolean baselineUpdate,
        BaselineMode baselineMode,
        int baselineRuns,
        Tolerances tolerances,
        HistorySettings history,
        PrometheusSeries prometheusSeries,
        Optional<String> expectedToFailBy) {

    // The keys are MeasureResources' constants; the defaults of the report keys are declared here, once.
    public static final Path DEFAULT_REPORT_DIR = Path.of("target/vitals");
    public static final ConsoleMode DEFAULT_CONSOLE = ConsoleMode.TABLE;
    public static final BaselineMode DEFAULT_BASELINE_MODE = BaselineMode.FAIL;
    public static final int DEFAULT_BASELINE_RUNS = 1;
    public static final Percentage DEFAULT_TOLERANCE = Percentage.of(10);
    public static final PrometheusSeries DEFAULT_PROMETHEUS_SERIES = PrometheusSeries.BREACHED;

    private static final SettingParser<Optional<Percentage>> TOLERANCE = SettingParser.percentage().orOff();

    /**
     * What is printed to the console after each test class: the verdict-first table in 120 columns, the full
     * {@code docker stats}-style table with every figure, a JSON line per test, or nothing.
     */
    public enum ConsoleMode { TABLE, FULL, JSON, OFF }

    /** What a regression against the baseline does to the test. */
    public enum BaselineMode { FAIL, WARN }

    public ReportSettings {
        if (baselineRuns < 1) {
            throw new IllegalArgumentException("baselineRuns must be at least 1: " + baselineRuns);
        }
    }

    /** All defaults: {@code target/vitals}, a console table, no baseline. */
    public static ReportSettings defaults() {
        return from(key -> Optional.empty());
    }

    /**
     * Reads every report key from {@code lookup} (JUnit configuration parameters, then system properties).
     * {@code wallTime} is compared with a baseline only when its own tolerance key is set, since wall time depends
     * on the machine more than on the code.
     *
     * @throws io.vitals.internal.settings.InvalidSettingException naming the key, the value and what is accepted,
     *     for the first bad value
     */
    public static ReportSettings from(Function<String, Optional<String>> lookup) {
        SettingsReader reader = new SettingsReader(lookup);
        Path dir = reader.read(MeasureResources.REPORT_DIR_KEY, SettingParser.path(), DEFAULT_REPORT_DIR);
        ConsoleMode console = reader.read(MeasureResources.CONSOLE_KEY, SettingParser.enumOf(ConsoleMode.class),
                DEFAULT_CONSOLE);
        Optional<Path> baseline = reader.read(MeasureResources.BASELINE_KEY, SettingParser.path());
        boolean update = reader.read(MeasureResources.BASELINE_UPDATE_KEY, SettingParser.bool(), false);
        BaselineMode mode = reader.read(MeasureResources.BASELINE_MODE_KEY, SettingParser.enumOf(BaselineMode.class),
                DEFAULT_BASELINE_MODE);
        int runs = reader.read(MeasureResources.BASELINE_RUNS_KEY, SettingParser.wholeNumber(1, 5),
                DEFAULT_BASELINE_RUNS);
        Optional<Percentage> all = reader.read(MeasureResources.TOLERANCE_KEY, TOLERANCE,
                Optional.of(DEFAULT_TOLERANCE));
        Map<Metric, Optional<Percentage>> perMetric = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.compared()) {
            Optional<Optional<Percentage>> own = reader.read(MeasureResources.TOLERANCE_KEY_PREFIX + metric.key(),
                    TOLERANCE);
            Optional<Percentage> fallback = metric.comparison().orElseThrow().byDefault() ? all : Optional.empty();
            perMetric.put(metric, own.orElse(fallback));
        }
        return new ReportSettings(dir, console, baseline, update, mode, runs, new Tolerances(perMetric),
                HistorySettings.from(reader), prometheusSeries(reader),
                reader.read(MeasureResources.EXPECTED_TO_FAIL_BY_KEY, SettingParser.text()));
    }

    /**
     * The {@link MeasureResources#PROMETHEUS_SERIES_KEY} setting alone, for a merge of report directories.
     *
     * @throws io.vitals.internal.settings.InvalidSettingException naming the key, the value and what is accepted
     */
    public static PrometheusSeries prometheusSeries(Function<String, Optional<String>> lookup) {
        return prometheusSeries(new SettingsReader(lookup));
    }

    private static PrometheusSeries prometheusSeries(SettingsReader reader) {
        return reader.read(MeasureResources.PROMETHEUS_SERIES_KEY, SettingParser.enumOf(PrometheusSeries.class),
                DEFAULT_PROMETHEUS_SERIES);
    }
}
