package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import org.apiguardian.api.API;

/**
 * Finds the builds where a series of per-build figures stepped to a new level, and how far: the question "which build
 * moved this figure?" that a comparison of this build with the kept ones cannot answer.
 *
 * <p>Approach: E-divisive means (Matteson and James, 2014), as MongoDB's performance CI and Apache Otava (Hunter)
 * use it, with a deterministic test in place of the permutation test.
 * <ol>
 * <li><b>Candidates, by binary segmentation.</b> In a segment, the split that maximises the energy-distance statistic
 * {@code (n1 n2 / (n1 + n2)) (2 E|X - Y| - E|X - X'| - E|Y - Y'|)} (exponent 1) is a candidate, and both sides are
 * searched the same way until they are too short to split. The statistic assumes no distribution and reacts to any
 * difference between the sides. Every split with one build or more on each side is considered; when the best one
 * leaves fewer than {@code minSegment} builds on a side, those builds are set aside (a level seen in too few builds
 * to name) and the rest is searched again. Searching only the splits that keep {@code minSegment} builds would name
 * the build before a step seen in one build (100, ..., 100, 200 would step at the last 100, to the median 150).</li>
 * <li><b>Backward elimination against the neighbours.</b> Each candidate is judged between the candidates before and
 * after it: Student's t-test between the two segments, its p-value multiplied by the number of splits those segments
 * allowed (Bonferroni: the split was chosen as the one that looks most different, so its raw p-value is too small),
 * must be below alpha, and the step of the medians bigger than both the minimum effect (in % of the level before)
 * and the noise floor. The weakest candidate that fails (highest p, then smallest step) is dropped and the others
 * judged again, until all pass. Judging against the neighbours, rather than stopping the segmentation at the first
 * split that fails, finds a level that went up and came back: the first split of 100 (8 builds), 115 (4), 100 (8)
 * compares 100 with a mixture whose mean is barely higher, and would stop there.</li>
 * </ol>
 * On 2000 seeded histories of 20 builds of normal noise at CV 3 % (alpha 0.05, minimum effect 5 %), 1.7 % have a
 * change point (see ChangePointsEvaluationTests).
 *
 * <p>Why Student's t-test with a pooled variance rather than Welch's: a false alarm is a change point in a series
 * that did not change, and under that null both sides have one variance, so the pooled test is exact for normal
 * noise. Welch's degrees of freedom fall to about 1 when one side holds 2 builds, which leaves no power to name a
 * step two builds after it happened. Welch would protect against a change of spread without a change of level; the
 * minimum effect on the medians already keeps such a split from being reported. The test, unlike the permutation
 * test of the original method, is deterministic: the same series always gives the same change points (Hunter
 * replaced the permutation test because its results were not).
 *
 * <p>Cost: O(m^2) to search a segment of m builds (once more for each time builds are set aside at its ends), so
 * about O(n^2) for each level of the segmentation, and the elimination O(k^2 n) for k candidates; a series of 300
 * builds takes milliseconds (ChangePointsEvaluationTests prints the time).
 */
@API(status = INTERNAL, since = "0.1")
public final class ChangePoints {

    /** Builds on each side of a step by default: a step is named once the new level was seen in two builds. */
    public static final int DEFAULT_MIN_SEGMENT = 2;

    private final double alpha;
    private final double minEffectPercent;
    private final double noiseFloor;
    private final int minSegment;

    /**
     * @param alpha significance level (e.g. 0.05)
     * @param minEffectPercent the smallest step, in % of the level before, that counts
     * @param noiseFloor smallest absolute step that counts (metric unit)
     */
    public ChangePoints(double alpha, double minEffectPercent, double noiseFloor) {
        this(alpha, minEffectPercent, noiseFloor, DEFAULT_MIN_SEGMENT);
    }

    /**
     * @param alpha significance level (e.g. 0.05)
     * @param minEffectPercent the smallest step, in % of the level before, that counts
     * @param noiseFloor smallest absolute step that counts (metric unit)
     * @param minSegment the fewest builds on each side of a step, at least 2 (a t-test needs a spread)
     */
    public ChangePoints(double alpha, double minEffectPercent, double noiseFloor, int minSegment) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive): " + alpha);
        }
        if (!(minEffectPercent >= 0) || Double.isInfinite(minEffectPercent)) {
            throw new IllegalArgumentException("minimum effect must be a finite percentage >= 0: " + minEffectPercent);
        }
        if (!(noiseFloor >= 0) || Double.isInfinite(noiseFloor)) {
            throw new IllegalArgumentException("noise floor must be finite and >= 0: " + noiseFloor);
        }
        if (minSegment < 2) {
            throw new IllegalArgumentException("minimum segment must be at least 2 builds: " + minSegment);
        }
        this.alpha = alpha;
        this.minEffectPercent = minEffectPercent;
        this.noiseFloor = noiseFloor;
        this.minSegment = minSegment;
    }

    /**
     * A step.
     *
     * @param index the first build of the new level (0-based into the series)
     * @param before the median of the segment before
     * @param after the median of the segment after
     * @param effectPercent {@code 100 * (after - before) / |before|} (±Infinity when before is 0 and after is not)
     * @param p the p-value of the step: Student's t-test between the two segments, two-sided, multiplied by the
     *        number of splits the two segments allowed (Bonferroni), at most 1
     */
    public record ChangePoint(int index, double before, double after, double effectPercent, double p) {
    }

    /** Every significant step in {@code series} (one value per build, oldest first), by index ascending. */
    public List<ChangePoint> find(List<Double> series) {
        double[] x = values(series);
        TreeSet<Integer> candidates = new TreeSet<>();
        segment(x, 0, x.length, candidates);
        return prune(x, new ArrayList<>(candidates));
    }

    private static double[] values(List<Double> series) {
        double[] x = new double[series.size()];
        for (int i = 0; i < x.length; i++) {
            Double value = series.get(i);
            if (value == null || !Double.isFinite(value)) {
                throw new IllegalArgumentException("a change-point series takes finite numbers; build " + i
                        + " has " + value);
            }
            x[i] = value;
        }
        return x;
    }

    private void segment(double[] x, int lo, int hi, TreeSet<Integer> candidates) {
        // [a, b) is what is searched: [lo, hi) less the builds set aside at its ends
        int a = lo;
        int b = hi;
        int split;
        while (true) {
            if (b - a < 2 * minSegment) {
                return;
            }
            split = bestSplit(x, a, b);
            if (split < 0) {
                return;
            }
            if (split - a < minSegment) {
                a = split;
            } else if (b - split < minSegment) {
                b = split;
            } else {
                break;
            }
        }
        candidates.add(split);
        segment(x, lo, split, candidates);
        segment(x, split, hi, candidates);
    }

    /**
     * The split of {@code [lo, hi)}, with one build or more on each side, with the largest energy statistic, or -1
     * when none is positive (all values equal) or the segment has fewer than two builds. The sums of
     * distances within the left side, within the right side and between them are updated as one build moves from
     * right to left, O(m) a move.
     */
    private static int bestSplit(double[] x, int lo, int hi) {
        if (hi - lo < 2) {
            return -1;
        }
        double within = 0;
        for (int i = lo; i < hi; i++) {
            for (int j = i + 1; j < hi; j++) {
                within += Math.abs(x[i] - x[j]);
            }
        }
        double left = 0;
        double right = within;
        double between = 0;
        int best = -1;
        double bestQ = 0;
        for (int split = lo; split < hi; split++) {
            if (split > lo) {
                double n1 = split - lo;
                double n2 = hi - split;
                double q = n1 * n2 / (n1 + n2) * (2 * between / (n1 * n2) - withinMean(left, n1)
                        - withinMean(right, n2));
                if (q > bestQ) {
                    bestQ = q;
                    best = split;
                }
            }
            double toLeft = 0;
            for (int i = lo; i < split; i++) {
                toLeft += Math.abs(x[split] - x[i]);
            }
            double toRight = 0;
            for (int k = split + 1; k < hi; k++) {
                toRight += Math.abs(x[split] - x[k]);
            }
            left += toLeft;
            right -= toRight;
            between += toRight - toLeft;
        }
        return best;
    }

    // The mean distance between two builds of one side; a side of one build has no pair, and no spread.
    private static double withinMean(double sum, double n) {
        return n < 2 ? 0 : sum / (n * (n - 1) / 2);
    }

    private List<ChangePoint> prune(double[] x, List<Integer> points) {
        while (true) {
            List<ChangePoint> judged = new ArrayList<>(points.size());
            int weakest = -1;
            for (int i = 0; i < points.size(); i++) {
                int lo = i == 0 ? 0 : points.get(i - 1);
                int hi = i == points.size() - 1 ? x.length : points.get(i + 1);
                ChangePoint point = judge(x, lo, points.get(i), hi);
                judged.add(point);
                if (!accepted(point) && (weakest < 0 || weaker(point, judged.get(weakest)))) {
                    weakest = i;
                }
            }
            if (weakest < 0) {
                return List.copyOf(judged);
            }
            points.remove(weakest);
        }
    }

    private static boolean weaker(ChangePoint a, ChangePoint b) {
        if (a.p() != b.p()) {
            return a.p() > b.p();
        }
        return Math.abs(a.after() - a.before()) < Math.abs(b.after() - b.before());
    }

    private boolean accepted(ChangePoint point) {
        return point.p() < alpha && Math.abs(point.after() - point.before()) > noiseFloor
                && Math.abs(point.effectPercent()) > minEffectPercent;
    }

    private ChangePoint judge(double[] x, int lo, int split, int hi) {
        double before = median(x, lo, split);
        double after = median(x, split, hi);
        int splits = hi - lo - 2 * minSegment + 1;
        double p = Math.min(1, tTest(x, lo, split, hi) * splits);
        return new ChangePoint(split, before, after, percentOf(after - before, before), p);
    }

    /**
     * The two-sided p-value of Student's t-test (pooled variance) between {@code [lo, split)} and {@code [split,
     * hi)}. Two sides without any spread are told apart exactly: p = 0 when their levels differ, 1 when not.
     */
    static double tTest(double[] x, int lo, int split, int hi) {
        double n1 = split - lo;
        double n2 = hi - split;
        double mean1 = mean(x, lo, split);
        double mean2 = mean(x, split, hi);
        double squares = squaredDeviations(x, lo, split, mean1) + squaredDeviations(x, split, hi, mean2);
        double df = n1 + n2 - 2;
        double standardError = Math.sqrt(squares / df * (1 / n1 + 1 / n2));
        if (standardError == 0) {
            return mean1 == mean2 ? 1 : 0;
        }
        return StudentT.twoSidedP((mean2 - mean1) / standardError, df);
    }

    private static double mean(double[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i];
        }
        return sum / (to - from);
    }

    private static double squaredDeviations(double[] x, int from, int to, double mean) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (x[i] - mean) * (x[i] - mean);
        }
        return sum;
    }

    private static double median(double[] x, int from, int to) {
        double[] sorted = Arrays.copyOfRange(x, from, to);
        Arrays.sort(sorted);
        return Samples.medianOfSorted(sorted);
    }

    private static double percentOf(double delta, double base) {
        if (base == 0) {
            return delta == 0 ? 0 : Math.signum(delta) * Double.POSITIVE_INFINITY;
        }
        return 100.0 * delta / Math.abs(base);
    }
}
