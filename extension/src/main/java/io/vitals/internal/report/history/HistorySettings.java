package io.vitals.internal.report.history;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * How the run history is kept and compared, parsed once per run.
 *
 * @param file the history file to compare with (and to update), if any
 * @param update whether this run is added to {@code file} at the end
 * @param keep how many runs it keeps per test, container, phase and metric
 * @param alpha the significance level of the comparison
 * @param runId this run's id; shards of one CI run should share it (empty: made from the start time)
 */
public record HistorySettings(Optional<Path> file, boolean update, int keep, double alpha, Optional<String> runId) {

    public static final String HISTORY = "vitals.history";
    public static final String HISTORY_UPDATE = "vitals.history.update";
    public static final String HISTORY_RUNS = "vitals.history.runs";
    public static final String ALPHA = "vitals.stats.alpha";
    public static final String RUN_ID = "vitals.runId";

    public static final int DEFAULT_KEEP = 20;
    public static final double DEFAULT_ALPHA = 0.05;

    public HistorySettings {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1: " + keep);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1: " + alpha);
        }
    }

    /** @throws IllegalArgumentException naming the key, the value and what is accepted */
    public static HistorySettings from(Function<String, Optional<String>> lookup) {
        Optional<Path> file = lookup.apply(HISTORY).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of);
        boolean update = lookup.apply(HISTORY_UPDATE).map(v -> bool(HISTORY_UPDATE, v)).orElse(false);
        int keep = lookup.apply(HISTORY_RUNS).map(v -> keep(v)).orElse(DEFAULT_KEEP);
        double alpha = lookup.apply(ALPHA).map(HistorySettings::alpha).orElse(DEFAULT_ALPHA);
        Optional<String> runId = lookup.apply(RUN_ID).map(String::strip).filter(s -> !s.isEmpty());
        return new HistorySettings(file, update, keep, alpha, runId);
    }

    private static boolean bool(String key, String value) {
        if (value.strip().equalsIgnoreCase("true")) {
            return true;
        }
        if (value.strip().equalsIgnoreCase("false") || value.isBlank()) {
            return false;
        }
        throw invalid(key, value, "true, false");
    }

    private static int keep(String value) {
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= 2) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(HISTORY_RUNS, value, "a whole number of at least 2, e.g. 20 (a test needs several runs)");
    }

    private static double alpha(String value) {
        try {
            double parsed = Double.parseDouble(value.strip());
            if (parsed > 0 && parsed < 0.5) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(ALPHA, value, "a significance level between 0 and 0.5, e.g. 0.05 or 0.01");
    }

    private static IllegalArgumentException invalid(String key, String value, String accepted) {
        return new IllegalArgumentException("Invalid value '" + value + "' for configuration parameter '" + key
                + "': expected " + accepted);
    }
}
