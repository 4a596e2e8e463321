package io.vitals.internal.report.baseline;

import io.vitals.internal.report.Metric;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * A metric that moved beyond its tolerance from the baseline.
 *
 * @param container the container it belongs to
 * @param metric the metric
 * @param kind up (regression) or down (improvement)
 * @param baseline the baseline value: the median of {@code runs} stored values
 * @param now this run's value
 * @param changePercent the change in % of the baseline; infinite when the baseline is zero
 * @param tolerancePercent the tolerance it exceeded, in %
 * @param runs how many runs the baseline value is the median of
 */
public record BaselineFinding(String container, Metric metric, Kind kind, double baseline, double now,
        double changePercent, double tolerancePercent, int runs) {

    /** Which way a metric moved; every metric is "lower is better". */
    public enum Kind { REGRESSION, IMPROVEMENT }

    /**
     * E.g. {@code peakMemory regressed: baseline 812.0 MiB, now 1.1 GiB (+35.2 %, tolerance 10 %)}; with a
     * baseline of several runs the baseline reads {@code baseline 812.0 MiB (median of 5 runs)}.
     */
    public String message() {
        String verb = kind == Kind.REGRESSION ? "regressed" : "improved";
        String median = runs > 1 ? " (median of " + runs + " runs)" : "";
        return metric.key() + " " + verb + ": baseline " + metric.format(baseline) + median + ", now "
                + metric.format(now) + " (" + change() + ", tolerance " + plain(tolerancePercent) + " %)";
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
