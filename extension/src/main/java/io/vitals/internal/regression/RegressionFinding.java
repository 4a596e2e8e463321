package io.vitals.internal.regression;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.stats.Evidence;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * A metric that moved beyond its tolerance from the baseline, or from the run history that stands where a baseline
 * would.
 *
 * @param container the container it belongs to
 * @param metric the metric
 * @param kind up (regression) or down (improvement)
 * @param baseline the baseline value: the median of {@code runs} stored values
 * @param now this run's value
 * @param changePercent the change in % of the baseline; infinite when the baseline is zero
 * @param tolerancePercent the tolerance it exceeded, in %
 * @param runs how many runs the baseline value is the median of
 * @param phase the phase the figures belong to; empty for the whole test
 * @param evidence the statistics behind the finding, when it comes from a run history ({@code vitals.history});
 *     empty for the median-and-tolerance rule of a {@code vitals.baseline}
 */
@API(status = INTERNAL, since = "0.1")
public record RegressionFinding(String container, Metric metric, Kind kind, double baseline, double now,
        double changePercent, double tolerancePercent, int runs, Optional<String> phase,
        Optional<Evidence> evidence) {

    /** A finding of the median-and-tolerance rule, for the whole test. */
    public RegressionFinding(String container, Metric metric, Kind kind, double baseline, double now,
            double changePercent, double tolerancePercent, int runs) {
        this(container, metric, kind, baseline, now, changePercent, tolerancePercent, runs, Optional.empty(),
                Optional.empty());
    }

    /** Which way a metric moved: a regression is a move its direction calls worse (up for a ceiling). */
    public enum Kind { REGRESSION, IMPROVEMENT }

    /**
     * E.g. {@code peakMemory regressed: baseline 812.0 MiB, now 1.1 GiB (+35.2 %, tolerance 10 %)}; with a
     * baseline of several runs the baseline reads {@code baseline 812.0 MiB (median of 5 runs)}.
     */
    public String message() {
        if (evidence.isPresent()) {
            return statisticalMessage(evidence.get());
        }
        String verb = kind == Kind.REGRESSION ? "regressed" : "improved";
        String median = runs > 1 ? " (median of " + runs + " runs)" : "";
        return metric.key() + " " + verb + ": baseline " + metric.format(baseline) + median + ", now "
                + metric.format(now) + " (" + change() + ", tolerance " + plain(tolerancePercent) + " %)";
    }

    /**
     * E.g. {@code cpuTime regressed: +18.0 % [+12.1 %, +25.3 %], p = 0.002, 5 vs 10 runs (median 12.1 s -> 14.3 s,
     * minimum effect 10 %)}, prefixed by {@code phase 'evaluate' } for a phase.
     */
    private String statisticalMessage(Evidence e) {
        String verb = kind == Kind.REGRESSION ? "regressed" : "improved";
        return phase.map(p -> "phase '" + p + "' ").orElse("") + metric.key() + " " + verb + ": " + e.describe()
                + " (median " + metric.format(e.historyMedian()) + " -> " + metric.format(e.newMedian())
                + ", minimum effect " + plain(tolerancePercent) + " %)";
    }

    /** "+35.2 %", "-12.0 %", or "+∞ %" from a baseline of zero. */
    public String change() {
        if (Double.isInfinite(changePercent)) {
            return "+∞ %";
        }
        return String.format(Locale.ROOT, "%+.1f %%", changePercent);
    }

    // "10" rather than "10.0", "2.5" stays.
    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
