package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apiguardian.api.API;

/**
 * A percentile bootstrap confidence interval of the difference of medians, {@code median(x) - median(y)}: both
 * samples are resampled with replacement {@value #RESAMPLES} times.
 *
 * <p>The generator is seeded by the caller (Vitals uses a hash of the test, container, phase and metric), so the same
 * figures always give the same interval: a report that changes between two renderings of one run would not be
 * trusted.
 */
@API(status = INTERNAL, since = "0.1")
public final class Bootstrap {

    public static final int RESAMPLES = 2000;

    private Bootstrap() {
    }

    /**
     * An interval.
     *
     * @param low the lower bound
     * @param high the upper bound
     */
    public record Interval(double low, double high) {
    }

    /** The {@code 1 - alpha} interval of {@code median(x) - median(y)}. */
    public static Interval medianDifference(List<Double> x, List<Double> y, double alpha, long seed) {
        if (x.isEmpty() || y.isEmpty()) {
            throw new IllegalArgumentException("a bootstrap needs values in both samples: " + x.size() + " and "
                    + y.size());
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1: " + alpha);
        }
        double[] xs = x.stream().mapToDouble(Double::doubleValue).toArray();
        double[] ys = y.stream().mapToDouble(Double::doubleValue).toArray();
        SplittableRandom random = new SplittableRandom(seed);
        double[] differences = new double[RESAMPLES];
        double[] bx = new double[xs.length];
        double[] by = new double[ys.length];
        for (int i = 0; i < RESAMPLES; i++) {
            differences[i] = resampledMedian(xs, bx, random) - resampledMedian(ys, by, random);
        }
        Arrays.sort(differences);
        int low = (int) Math.floor(alpha / 2 * (RESAMPLES - 1));
        int high = (int) Math.ceil((1 - alpha / 2) * (RESAMPLES - 1));
        return new Interval(differences[low], differences[high]);
    }

    private static double resampledMedian(double[] values, double[] buffer, SplittableRandom random) {
        for (int i = 0; i < buffer.length; i++) {
            buffer[i] = values[random.nextInt(values.length)];
        }
        Arrays.sort(buffer);
        return Samples.medianOfSorted(buffer);
    }
}
