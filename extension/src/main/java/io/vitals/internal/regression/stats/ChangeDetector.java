package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * Decides whether a metric changed between earlier runs (the history) and this run: a change counts only when it is
 * statistically significant <em>and</em> bigger than the minimum effect (the metric's tolerance) <em>and</em> bigger
 * than the metric's noise floor. Significance alone would flag a 1 % drift measured often enough; size alone (the
 * old rule) flags one noisy run.
 *
 * <p>Which test runs depends on what there is to compare, see {@link Evidence.Rule}.
 */
@API(status = INTERNAL, since = "0.1")
public final class ChangeDetector {

    /** Robust z-scores beyond this mark an outlier (Iglewicz and Hoaglin, 1993). */
    public static final double ROBUST_Z_LIMIT = 3.5;
    /** The fewest history values the robust z-score is computed from; below it a MAD means little. */
    public static final int ROBUST_Z_MIN_HISTORY = 5;
    // Scales the MAD to the standard deviation for normal data, so z reads like a familiar z-score.
    private static final double MAD_TO_SIGMA = 1.4826;

    private final double alpha;

    /** @param alpha the significance level of the tests, e.g. 0.05 */
    public ChangeDetector(double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive): " + alpha);
        }
        this.alpha = alpha;
    }

    public double alpha() {
        return alpha;
    }

    /**
     * What was found.
     *
     * @param changed whether the metric counts as changed (up or down, see {@link Evidence#effectPercent()})
     * @param evidence the figures behind the decision
     */
    public record Outcome(boolean changed, Evidence evidence) {
    }

    /**
     * Compares {@code now} with {@code history}; empty when the change of the median is within the noise floor, so
     * there is nothing to tell.
     *
     * @param minEffectPercent the smallest change (in % of the history's median) that counts
     * @param noiseFloor the smallest absolute change that counts, in the metric's unit
     * @param seed seeds the bootstrap, so the same figures always give the same interval
     */
    public Optional<Outcome> compare(List<Double> now, List<Double> history, double minEffectPercent,
            double noiseFloor, long seed) {
        if (now.isEmpty() || history.isEmpty()) {
            return Optional.empty();
        }
        double nowMedian = Samples.median(now);
        double historyMedian = Samples.median(history);
        double delta = nowMedian - historyMedian;
        if (Math.abs(delta) <= noiseFloor) {
            return Optional.empty();
        }
        double effect = percentOf(delta, historyMedian);
        boolean bigEnough = Math.abs(effect) > minEffectPercent;
        if (now.size() >= 2 && history.size() >= 2) {
            MannWhitney.Result test = MannWhitney.test(now, history);
            Bootstrap.Interval difference = Bootstrap.medianDifference(now, history, alpha, seed);
            Bootstrap.Interval interval = new Bootstrap.Interval(percentOf(difference.low(), historyMedian),
                    percentOf(difference.high(), historyMedian));
            boolean significant = test.p() < alpha;
            return Optional.of(new Outcome(significant && bigEnough, new Evidence(Evidence.Rule.MANN_WHITNEY,
                    now.size(), history.size(), nowMedian, historyMedian, effect, Optional.of(interval),
                    OptionalDouble.of(test.p()), test.exact(), OptionalDouble.empty(), significant)));
        }
        if (now.size() == 1 && history.size() >= ROBUST_Z_MIN_HISTORY) {
            double spread = MAD_TO_SIGMA * Samples.mad(history);
            double z = spread == 0 ? Math.signum(delta) * Double.POSITIVE_INFINITY : delta / spread;
            boolean significant = Math.abs(z) > ROBUST_Z_LIMIT;
            return Optional.of(new Outcome(significant && bigEnough, new Evidence(Evidence.Rule.ROBUST_Z, 1,
                    history.size(), nowMedian, historyMedian, effect, Optional.empty(), OptionalDouble.empty(), false,
                    OptionalDouble.of(z), significant)));
        }
        return Optional.of(new Outcome(bigEnough, new Evidence(Evidence.Rule.TOLERANCE, now.size(), history.size(),
                nowMedian, historyMedian, effect, Optional.empty(), OptionalDouble.empty(), false,
                OptionalDouble.empty(), true)));
    }

    /** The share of unchanged builds the single-build rule lets through: a false alarm in 1 of 1,000. */
    public static final double SINGLE_BUILD_COVERAGE = 0.999;
    /** The interval each of the last builds must leave for the sustained rule. */
    public static final double SUSTAINED_COVERAGE = 0.95;
    /** How many builds in a row the sustained rule asks for: this one and the two before it. */
    public static final int SUSTAINED_BUILDS = 3;

    /**
     * The run history's verdict on one build's figure (docs/ci.md, "Builds, not repetitions"): it moved when it lies
     * outside the {@value #SINGLE_BUILD_COVERAGE} prediction interval of the {@code level} builds (a false alarm in 1
     * of 1,000 unchanged builds, if builds are like the ones before), or when it and the two builds before it all lie
     * outside the {@value #SUSTAINED_COVERAGE} interval of the builds before them (0.05^3: a smaller move, caught
     * once it holds); in both cases by more than the minimum effect and the noise floor. Empty when the level holds
     * fewer than {@link PredictionBound#MIN_BUILDS} builds: with fewer, nothing is judged.
     *
     * @param level the builds that make the norm, oldest first: the testbed's builds since the figure's last
     *     established step
     * @param recent builds after those (a new level not yet established), oldest first; usually none
     * @param now this build's figure
     */
    public Optional<Outcome> judgeBuild(List<Double> level, List<Double> recent, double now, double minEffectPercent,
            double noiseFloor) {
        if (level.size() < PredictionBound.MIN_BUILDS) {
            return Optional.empty();
        }
        double median = Samples.median(level);
        double delta = now - median;
        PredictionBound bound = PredictionBound.of(level);
        double effect = percentOf(delta, median);
        double p = bound.pValue(now);
        boolean outside = p < 1 - SINGLE_BUILD_COVERAGE;
        boolean bigEnough = Math.abs(effect) > minEffectPercent && Math.abs(delta) > noiseFloor;
        Evidence single = new Evidence(Evidence.Rule.PREDICTION_BOUND, 1, level.size(), now, median, effect,
                Optional.of(interval(bound, SINGLE_BUILD_COVERAGE, median)), OptionalDouble.of(p), false,
                OptionalDouble.empty(), outside);
        if (outside && bigEnough) {
            return Optional.of(new Outcome(true, single));
        }
        Optional<Outcome> sustained = sustained(level, recent, now, minEffectPercent, noiseFloor);
        if (sustained.isPresent()) {
            return sustained;
        }
        return Math.abs(delta) <= noiseFloor ? Optional.empty() : Optional.of(new Outcome(false, single));
    }

    private Optional<Outcome> sustained(List<Double> level, List<Double> recent, double now, double minEffectPercent,
            double noiseFloor) {
        List<Double> all = new java.util.ArrayList<>(level);
        all.addAll(recent);
        int before = all.size() - (SUSTAINED_BUILDS - 1);
        List<Double> base = all.subList(0, Math.min(level.size(), before));
        if (base.size() < PredictionBound.MIN_BUILDS) {
            return Optional.empty();
        }
        List<Double> run = new java.util.ArrayList<>(all.subList(before, all.size()));
        run.add(now);
        PredictionBound bound = PredictionBound.of(base);
        double upper = bound.upper(SUSTAINED_COVERAGE);
        double lower = bound.lower(SUSTAINED_COVERAGE);
        boolean above = run.stream().allMatch(v -> v > upper);
        boolean below = run.stream().allMatch(v -> v < lower);
        double median = Samples.median(base);
        double runMedian = Samples.median(run);
        double effect = percentOf(runMedian - median, median);
        if (!(above || below) || Math.abs(effect) <= minEffectPercent || Math.abs(runMedian - median) <= noiseFloor) {
            return Optional.empty();
        }
        double p = run.stream().mapToDouble(bound::pValue).max().orElse(1);
        return Optional.of(new Outcome(true, new Evidence(Evidence.Rule.SUSTAINED, SUSTAINED_BUILDS, base.size(),
                runMedian, median, effect, Optional.of(interval(bound, SUSTAINED_COVERAGE, median)),
                OptionalDouble.of(p), false, OptionalDouble.empty(), true)));
    }

    private static Bootstrap.Interval interval(PredictionBound bound, double coverage, double median) {
        return new Bootstrap.Interval(percentOf(bound.lower(coverage) - median, median),
                percentOf(bound.upper(coverage) - median, median));
    }

    private static double percentOf(double delta, double base) {
        if (base == 0) {
            return delta == 0 ? 0 : Math.signum(delta) * Double.POSITIVE_INFINITY;
        }
        return 100.0 * delta / Math.abs(base);
    }
}
