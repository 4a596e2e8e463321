package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;

import org.apiguardian.api.API;

/**
 * Where the next build's figure is expected, from the builds before it: the prediction interval of one new value.
 * The figures are taken as log-normal where all are positive (contention and machine state stretch a figure by a
 * factor rather than add to it), as normal otherwise; Student's t with {@code n - 1} degrees of freedom carries the
 * uncertainty of the mean and spread of few builds, so the interval narrows as builds add up. Both the run history's
 * verdict (is this build outside the interval?) and the suggested budgets (the interval's top) use it, so a budget
 * and a regression mean the same thing.
 *
 * @param centre the centre: the geometric mean (log-normal) or the mean
 * @param spread the standard deviation of the logs (log-normal) or of the values, from {@code n} builds
 * @param builds how many builds it rests on ({@code n})
 * @param logNormal whether it works in logs
 */
@API(status = INTERNAL, since = "0.1")
public record PredictionBound(double centre, double spread, int builds, boolean logNormal) {

    /** The fewest builds an interval is formed from: fewer say too little of the spread. */
    public static final int MIN_BUILDS = 5;

    /** The interval of {@code values}, one figure per build; at least 2. */
    public static PredictionBound of(List<Double> values) {
        int n = values.size();
        if (n < 2) {
            throw new IllegalArgumentException("a prediction interval needs at least 2 builds, not " + n);
        }
        boolean positive = values.stream().allMatch(v -> v > 0);
        double[] x = values.stream().mapToDouble(v -> positive ? Math.log(v) : v).toArray();
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= n;
        double squares = 0;
        for (double v : x) {
            squares += (v - mean) * (v - mean);
        }
        return new PredictionBound(positive ? Math.exp(mean) : mean, Math.sqrt(squares / (n - 1)), n, positive);
    }

    /** The value the next build stays under with probability {@code coverage} (e.g. 0.99), if it is like these. */
    public double upper(double coverage) {
        return at(StudentT.quantile(coverage, builds - 1));
    }

    /** The value the next build stays over with probability {@code coverage}. */
    public double lower(double coverage) {
        return at(-StudentT.quantile(coverage, builds - 1));
    }

    /**
     * The one-sided p-value of {@code value} in the direction it lies: how likely a build like these lies as far out
     * or farther. 0 when the builds did not spread at all and {@code value} differs from them.
     */
    public double pValue(double value) {
        double x = logNormal ? Math.log(Math.max(value, Double.MIN_NORMAL)) : value;
        double c = logNormal ? Math.log(centre) : centre;
        double scale = spread * Math.sqrt(1 + 1.0 / builds);
        if (scale == 0) {
            return x == c ? 1 : 0;
        }
        double t = Math.abs(x - c) / scale;
        return StudentT.twoSidedP(t, builds - 1) / 2;
    }

    private double at(double t) {
        double offset = t * spread * Math.sqrt(1 + 1.0 / builds);
        return logNormal ? centre * Math.exp(offset) : centre + offset;
    }
}
