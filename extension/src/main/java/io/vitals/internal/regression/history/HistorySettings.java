package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * How the run history is kept and compared, parsed once per run.
 *
 * @param file the history file to compare with (and to update), if any
 * @param update whether this run is added to {@code file} at the end
 * @param keep how many runs it keeps per test, container, phase and metric
 * @param alpha the significance level of the comparison
 * @param runId this run's id; shards of one CI run should share it (empty: made from the start time)
 * @param testbed the user's name for this build's testbed, if any ({@code vitals.testbed})
 * @param testbedIgnore the testbed facts that do not tell testbeds apart ({@code vitals.testbed.ignore})
 * @param commit the commit this build ran, if given ({@code vitals.commit}); else the CI's variables are asked
 * @param branch the branch this build ran, if given ({@code vitals.branch}); else the CI's variables are asked
 */
@API(status = INTERNAL, since = "0.1")
public record HistorySettings(Optional<Path> file, boolean update, int keep, double alpha, Optional<String> runId,
        Optional<String> testbed, List<String> testbedIgnore, Optional<String> commit, Optional<String> branch) {

    // The keys are MeasureResources' constants; their defaults are declared here, once.
    public static final int DEFAULT_KEEP = 20;
    public static final double DEFAULT_ALPHA = 0.05;

    // A test needs several runs before anything can be significant.
    private static final SettingParser<Integer> KEEP = SettingParser.wholeNumber(2, DEFAULT_KEEP);
    private static final SettingParser<Double> ALPHA = SettingParser.decimal()
            .where(alpha -> alpha > 0 && alpha < 0.5, "a significance level between 0 and 0.5, e.g. 0.05 or 0.01");
    private static final SettingParser<List<String>> TESTBED_FIELDS = SettingParser.wordsOf(
            Arrays.stream(Testbed.Field.values()).map(Testbed.Field::key).toList());

    public HistorySettings {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1: " + keep);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1: " + alpha);
        }
        testbedIgnore = List.copyOf(testbedIgnore);
    }

    /** Settings without a testbed name, folded facts, commit or branch. */
    public HistorySettings(Optional<Path> file, boolean update, int keep, double alpha, Optional<String> runId) {
        this(file, update, keep, alpha, runId, Optional.empty(), List.of(), Optional.empty(), Optional.empty());
    }

    /** @throws io.vitals.internal.settings.InvalidSettingException naming the key, the value and what is accepted */
    public static HistorySettings from(SettingsReader reader) {
        return new HistorySettings(
                reader.read(MeasureResources.HISTORY_KEY, SettingParser.path()),
                reader.read(MeasureResources.HISTORY_UPDATE_KEY, SettingParser.bool(), false),
                reader.read(MeasureResources.HISTORY_RUNS_KEY, KEEP, DEFAULT_KEEP),
                reader.read(MeasureResources.STATS_ALPHA_KEY, ALPHA, DEFAULT_ALPHA),
                reader.read(MeasureResources.RUN_ID_KEY, SettingParser.text()),
                reader.read(MeasureResources.TESTBED_KEY, SettingParser.text()),
                reader.read(MeasureResources.TESTBED_IGNORE_KEY, TESTBED_FIELDS, List.of()),
                reader.read(MeasureResources.COMMIT_KEY, SettingParser.text()),
                reader.read(MeasureResources.BRANCH_KEY, SettingParser.text()));
    }
}
