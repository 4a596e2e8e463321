package io.vitals.internal.report;

import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Baseline;
import io.vitals.internal.regression.baseline.BaselineComparator;
import io.vitals.internal.regression.baseline.BaselineStore;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistorySession;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The baseline and the run history as one run's reports use them: each test compared with whichever is configured
 * (the history stands where a baseline would), what the index says about them, and their update at the run's end.
 * The analysis itself is in {@code io.vitals.internal.regression}; this class only wires it to the settings.
 */
final class RunRegressions {

    private final ReportSettings settings;
    private final BaselineStore baselineStore;
    private final Baseline baseline;
    private final boolean baselineFound;
    private final BaselineComparator comparator;
    private final HistorySession history;

    /** Reads the baseline and the history; an unreadable one is never overwritten, and said on {@code warnings}. */
    RunRegressions(ReportSettings settings, Instant runStartedAt, Consumer<String> warnings) {
        this.settings = settings;
        boolean failMode = settings.baselineMode() == ReportSettings.BaselineMode.FAIL;
        // BaselineStore decides, warns and fails tests in fail mode
        this.baselineStore = BaselineStore.load(settings.baseline(), settings.baselineUpdate(), failMode, warnings);
        this.baseline = baselineStore.baseline();
        this.baselineFound = baselineStore.found();
        this.comparator = baselineStore.comparator(settings.tolerances());
        this.history = new HistorySession(settings.history(), settings.tolerances(), failMode, runStartedAt, warnings);
    }

    /** The run history; its suggestions, report copy and update are written with the run-wide files. */
    HistorySession history() {
        return history;
    }

    /** Compares the test with the history if one is configured, else with the baseline; never throws. */
    RegressionVerdict compare(TestResult result) {
        if (!result.isMeasured()) {
            // nothing measured (failed before, disabled): no figure to compare, and no "not in baseline" either
            return RegressionVerdict.none(ReportNames.testKey(result));
        }
        if (history.configured()) {
            return history.compare(result);
        }
        return settings.baseline().isEmpty() ? RegressionVerdict.none(ReportNames.testKey(result))
                : comparator.compare(result);
    }

    /** Whether the console shows each test's verdict: there was something readable to compare with. */
    boolean showsVerdicts() {
        return baselineFound || history.configured() && history.problem().isEmpty();
    }

    /**
     * Adds this run's results to the baseline, if it is to be updated.
     *
     * @param readAgain whether another JVM of this run may have updated the file since this one read it
     * @return a warning, if the update failed
     */
    Optional<String> updateBaseline(Collection<TestResult> results, boolean readAgain) {
        return baselineStore.update(results, settings.baselineRuns(), readAgain);
    }

    /** The history with this run added: {@code others} are the other JVMs' results, this JVM's are recorded. */
    History withThisRun(List<TestResult> others) {
        return history.withThisRun(others);
    }

    /** What the index says about the baseline, or the run history standing where it would; none without either. */
    Optional<RunReport.BaselineSummary> summary(List<RunReport.Entry> tests) {
        Optional<RunReport.BaselineSummary> summary = settings.baseline().map(file -> {
            Set<String> run = tests.stream().map(e -> ReportNames.testKey(e.result()))
                    .collect(Collectors.toSet());
            List<String> notRun = new ArrayList<>(new TreeSet<>(baseline.tests().keySet()));
            notRun.removeAll(run);
            IntSummaryStatistics held = baseline.tests().values().stream().flatMap(c -> c.values().stream())
                    .flatMap(m -> m.values().stream()).mapToInt(List::size).summaryStatistics();
            return new RunReport.BaselineSummary(file.toString(), baselineFound, settings.baselineRuns(),
                    held.getCount() == 0 ? 0 : held.getMin(), held.getCount() == 0 ? 0 : held.getMax(),
                    settings.baselineUpdate(), settings.baselineMode() == ReportSettings.BaselineMode.WARN, notRun);
        });
        if (summary.isEmpty() && history.configured()) {
            summary = Optional.of(historySummary());
        }
        return summary;
    }

    /** The run history stands where a baseline would: the index then carries each test's verdict. */
    private RunReport.BaselineSummary historySummary() {
        IntSummaryStatistics held = history.loaded().runs().values().stream().mapToInt(List::size)
                .summaryStatistics();
        return new RunReport.BaselineSummary(settings.history().file().map(Path::toString).orElse(""),
                history.problem().isEmpty() && held.getCount() > 0, settings.history().keep(),
                held.getCount() == 0 ? 0 : held.getMin(), held.getCount() == 0 ? 0 : held.getMax(),
                settings.history().update(), settings.history().update(), List.of(), true);
    }
}
