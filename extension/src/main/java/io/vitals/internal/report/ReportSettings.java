package io.vitals.internal.report;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.baseline.Tolerances;
import io.vitals.internal.report.history.HistorySettings;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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
 * @param history the run history ({@code vitals.history}) and its statistical comparison
 */
public record ReportSettings(
        Path reportDir,
        ConsoleMode console,
        Optional<Path> baseline,
        boolean baselineUpdate,
        BaselineMode baselineMode,
        int baselineRuns,
        Tolerances tolerances,
        HistorySettings history) {

    public static final String REPORT_DIR = "vitals.reportDir";
    public static final String CONSOLE = "vitals.console";
    public static final String BASELINE = "vitals.baseline";
    public static final String BASELINE_UPDATE = "vitals.baseline.update";
    public static final String BASELINE_MODE = "vitals.baseline.mode";
    public static final String BASELINE_RUNS = "vitals.baseline.runs";
    public static final String TOLERANCE = "vitals.tolerance";
    /** Prefix of the per-metric tolerance, e.g. {@code vitals.tolerance.peakMemory}. */
    public static final String TOLERANCE_PREFIX = "vitals.tolerance.";

    public static final String DEFAULT_REPORT_DIR = "target/vitals";
    public static final Percentage DEFAULT_TOLERANCE = Percentage.of(10);

    /** What is printed to the console after each test class. */
    public enum ConsoleMode { TABLE, JSON, OFF }

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
     * Reads every {@code vitals.*} report key from {@code lookup} (JUnit configuration parameters, then system
     * properties). {@code wallTime} is compared with a baseline only when {@code vitals.tolerance.wallTime} is set,
     * since wall time depends on the machine more than on the code.
     *
     * @throws IllegalArgumentException naming the key, the value and what is accepted, for the first bad value
     */
    public static ReportSettings from(Function<String, Optional<String>> lookup) {
        Path dir = lookup.apply(REPORT_DIR).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of)
                .orElse(Path.of(DEFAULT_REPORT_DIR));
        ConsoleMode console = enumValue(lookup, CONSOLE, ConsoleMode.class, ConsoleMode.TABLE);
        Optional<Path> baseline = lookup.apply(BASELINE).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of);
        boolean update = bool(lookup, BASELINE_UPDATE);
        BaselineMode mode = enumValue(lookup, BASELINE_MODE, BaselineMode.class, BaselineMode.FAIL);
        int runs = lookup.apply(BASELINE_RUNS).map(v -> positiveInt(BASELINE_RUNS, v)).orElse(1);
        Optional<Percentage> all = lookup.apply(TOLERANCE).map(v -> tolerance(TOLERANCE, v)).orElse(Optional.of(
                DEFAULT_TOLERANCE));
        Map<Metric, Optional<Percentage>> perMetric = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.compared()) {
            String key = TOLERANCE_PREFIX + metric.key();
            Optional<Optional<Percentage>> own = lookup.apply(key).map(v -> tolerance(key, v));
            Optional<Percentage> fallback = metric.comparison().orElseThrow().byDefault() ? all : Optional.empty();
            perMetric.put(metric, own.orElse(fallback));
        }
        return new ReportSettings(dir, console, baseline, update, mode, runs, new Tolerances(perMetric),
                HistorySettings.from(lookup));
    }

    private static <E extends Enum<E>> E enumValue(Function<String, Optional<String>> lookup, String key,
            Class<E> type, E fallback) {
        Optional<String> value = lookup.apply(key);
        if (value.isEmpty()) {
            return fallback;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value.get().strip())) {
                return constant;
            }
        }
        StringBuilder accepted = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            accepted.append(accepted.length() == 0 ? "" : ", ").append(constant.name().toLowerCase(Locale.ROOT));
        }
        throw invalid(key, value.get(), accepted.toString());
    }

    private static boolean bool(Function<String, Optional<String>> lookup, String key) {
        Optional<String> value = lookup.apply(key).map(String::strip);
        if (value.isEmpty() || value.get().equalsIgnoreCase("false")) {
            return false;
        }
        if (value.get().equalsIgnoreCase("true")) {
            return true;
        }
        throw invalid(key, value.get(), "true, false");
    }

    private static int positiveInt(String key, String value) {
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            throw invalid(key, value, "a whole number of at least 1, e.g. 5", e);
        }
        throw invalid(key, value, "a whole number of at least 1, e.g. 5");
    }

    // Empty means "off": the metric is not compared.
    private static Optional<Percentage> tolerance(String key, String value) {
        if (value.strip().equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Percentage.parse(value));
        } catch (IllegalArgumentException e) {
            throw invalid(key, value, "a percentage such as 10% or 2.5%, or off", e);
        }
    }

    private static IllegalArgumentException invalid(String key, String value, String accepted) {
        return new IllegalArgumentException(message(key, value, accepted));
    }

    private static IllegalArgumentException invalid(String key, String value, String accepted, Exception cause) {
        return new IllegalArgumentException(message(key, value, accepted), cause);
    }

    private static String message(String key, String value, String accepted) {
        return "Invalid value '" + value + "' for configuration parameter '" + key + "': expected " + accepted;
    }
}
