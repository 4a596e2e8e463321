package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.List;

import org.apiguardian.api.API;

/** Order statistics shared by the tests: median, percentiles and the median absolute deviation. */
@API(status = INTERNAL, since = "0.1")
public final class Samples {

    private Samples() {
    }

    public static double[] sorted(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    /** The median of {@code values}, which must not be empty. */
    public static double median(List<Double> values) {
        return medianOfSorted(sorted(values));
    }

    static double medianOfSorted(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            throw new IllegalArgumentException("the median of no values is undefined");
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The nearest-rank percentile (the smallest value with at least {@code p} % of the values at or below it), so
     * the result is always one of the measured values: "p99 of 20 runs" is their maximum, which is what a budget
     * must hold.
     */
    public static double percentile(List<Double> values, double p) {
        if (p <= 0 || p > 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
        }
        double[] sorted = sorted(values);
        if (sorted.length == 0) {
            throw new IllegalArgumentException("the percentile of no values is undefined");
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /** The median absolute deviation from the median (unscaled). */
    public static double mad(List<Double> values) {
        double median = median(values);
        double[] deviations = values.stream().mapToDouble(v -> Math.abs(v - median)).toArray();
        Arrays.sort(deviations);
        return medianOfSorted(deviations);
    }
}
