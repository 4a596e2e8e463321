package io.vitals.internal.regression;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryComparator;
import io.vitals.internal.regression.stats.ChangeDetector;

import java.util.List;
import java.util.Optional;

/**
 * The rule the reports apply ({@link HistoryComparator#judge}), with the testbed harness's tolerances, for
 * {@link HistoryReplay}: a figure of one build against the builds before it.
 */
final class ReplayJudge {

    private static final Percentage PEAK_TOLERANCE = Percentage.of(5); // the harness's vitals.tolerance.peakMemory
    private static final Percentage TOLERANCE = Percentage.of(10); // the default vitals.tolerance
    private static final ChangeDetector DETECTOR = new ChangeDetector(0.05);

    private ReplayJudge() {
    }

    static Percentage tolerance(Metric metric) {
        return metric == Metric.PEAK_MEMORY ? PEAK_TOLERANCE : TOLERANCE;
    }

    /** The outcome for {@code now} against {@code before}, changed or not; empty when there is too little to judge. */
    static Optional<ChangeDetector.Outcome> judge(List<Double> before, double now, Metric metric) {
        return HistoryComparator.judge(DETECTOR, before, HistoryComparator.steps(before, metric, tolerance(metric),
                0.05), now, metric, tolerance(metric));
    }

    /** Whether {@code now} is judged a change against {@code before}, in either direction. */
    static boolean flags(List<Double> before, double now, Metric metric) {
        return judge(before, now, metric).filter(ChangeDetector.Outcome::changed).isPresent();
    }
}
