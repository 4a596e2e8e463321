package io.vitals.internal.regression.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.BudgetText;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.HistoryRun;
import io.vitals.internal.regression.stats.PredictionBound;
import io.vitals.internal.regression.testbed.Testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * Proposes budgets from the builds of one testbed: the one-sided {@value #COVERAGE_PERCENT} % prediction bound for
 * the next build, rounded up to two significant digits in a unit a person would write ({@code 330MiB}, {@code 17s},
 * {@code 850ms}, {@code 160%}, {@code 41}).
 *
 * <p>The rule. A build is the unit (the median of its repetitions, {@link HistoryRun#buildValue}), never a
 * repetition: repetitions of one build share its machine state and say little about the next build. The figures of
 * {@code n} builds are taken as log-normal, since contention stretches them by a factor rather than adding to them
 * (figures with a 0 among them: normal), and the bound is {@code exp(m + t(0.99, n-1) * s * sqrt(1 + 1/n))} over the
 * logs' mean {@code m} and standard deviation {@code s}: the value the next build stays under with 99 %
 * probability if it is like the ones before. Student's t carries the uncertainty of {@code m} and {@code s} from few
 * builds, so the margin shrinks as the history grows (t is 3.75 at 5 builds, 2.54 at 20), as the Kubernetes VPA
 * recommender's confidence term does. The budget is never below the highest build seen, so that no suggestion is
 * broken by the history it came from. Only the builds since the figure's last step count (the caller passes them,
 * {@link Builds#sinceLastStep}): a level the code has left says nothing of the next build. How well this holds is measured by hold-out
 * in docs/benchmarks.md ("Suggested budgets, held out").
 *
 * <p>Nothing is suggested for a figure without a budget attribute, for one that was 0 in every build (no signal:
 * a budget of "1KiB" on a test that sends nothing says nothing), or from fewer than {@value #MIN_BUILDS} builds.
 * {@code memoryHeadroom}, a floor, is suggested beside {@code peakMemory} for a container with a memory limit: the
 * share of the limit left free at the peak's bound, rounded down.
 */
@API(status = INTERNAL, since = "0.1")
public final class BudgetSuggester {

    /** The share of unchanged builds a suggested budget is meant to hold in. */
    public static final int COVERAGE_PERCENT = 99;
    /** The smallest step that makes a new level, for suggestions: the default tolerance of a comparison. */
    static final double DEFAULT_STEP_PERCENT = 10;
    /** The significance level of such a step: the history's default. */
    static final double STEP_ALPHA = 0.05;
    /** Fewer builds than this suggest nothing: the spread of fewer says too little. */
    public static final int MIN_BUILDS = 5;

    /**
     * The builds of one figure on one testbed, oldest first.
     *
     * @param testbed the testbed's id
     * @param values each build's figure
     * @param memoryLimit the container's memory limit on that testbed, in bytes, if it has one
     */
    public record Builds(String testbed, List<Double> values, OptionalLong memoryLimit) {

        public Builds {
            values = List.copyOf(values);
        }

        /**
         * These builds from the figure's most recent step on ({@code ChangePoints}, at the default tolerance of 10 %
         * and {@code alpha}); all of them when there is none.
         */
        public Builds sinceLastStep(double alpha, double noiseFloor) {
            if (values.size() < 4) {
                return this;
            }
            List<io.vitals.internal.regression.stats.ChangePoints.ChangePoint> steps =
                    new io.vitals.internal.regression.stats.ChangePoints(alpha, DEFAULT_STEP_PERCENT, noiseFloor)
                            .find(values);
            return steps.isEmpty() ? this : new Builds(testbed,
                    values.subList(steps.get(steps.size() - 1).index(), values.size()), memoryLimit);
        }

        /** The build figures of {@code runs}, all on {@code testbed}. */
        public static Builds of(Testbed testbed, List<HistoryRun> runs) {
            return new Builds(testbed.id(), runs.stream().map(HistoryRun::buildValue).toList(), memoryLimit(testbed));
        }

        private static OptionalLong memoryLimit(Testbed testbed) {
            String limits = testbed.fields().getOrDefault(Testbed.Field.LIMITS.key(), "");
            for (String part : limits.split(" ")) {
                if (part.startsWith("mem=")) {
                    try {
                        return OptionalLong.of(Long.parseLong(part.substring(4)));
                    } catch (NumberFormatException e) {
                        return OptionalLong.empty();
                    }
                }
            }
            return OptionalLong.empty();
        }
    }

    /** Suggestions for every key with enough builds and a {@code @ResourceBudget} attribute. */
    public List<BudgetSuggestion> suggest(Map<HistoryKey, Builds> measurements) {
        List<BudgetSuggestion> suggestions = new ArrayList<>();
        measurements.forEach((key, builds) -> suggestions.addAll(suggestAll(key, builds)));
        return suggestions;
    }

    /** The suggestion for {@code key}'s own figure, if any (its headroom aside). */
    public Optional<BudgetSuggestion> suggest(HistoryKey key, Builds builds) {
        return suggestAll(key, builds).stream().filter(s -> s.attribute().equals(key.metric())).findFirst();
    }

    /** The suggestion for {@code key}'s figure, and for a peak memory with a limit the headroom's too. */
    public List<BudgetSuggestion> suggestAll(HistoryKey key, Builds all) {
        Optional<Metric> metric = Metric.byKey(key.metric()).filter(m -> m.isBudgetable() && !m.isFloor());
        if (metric.isEmpty()) {
            return List.of();
        }
        Builds builds = all.sinceLastStep(STEP_ALPHA, metric.get().isCompared() ? metric.get().noiseFloor() : 0);
        List<Double> values = builds.values();
        if (values.size() < MIN_BUILDS || values.stream().allMatch(v -> v == 0)) {
            return List.of();
        }
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double bound = Math.max(upperBound(values), max);
        BudgetText readable = metric.get().unit().roundUp(bound);
        String basis = promise(builds) + ", from " + values.size() + " builds (highest " + metric.get().format(max)
                + ", bound " + metric.get().format(bound) + "), rounded up";
        List<BudgetSuggestion> out = new ArrayList<>();
        out.add(new BudgetSuggestion(key.test(), key.container(), key.phase(), metric.get().key(), readable.text(),
                readable.value(), basis, values.size(), builds.testbed()));
        if (metric.get() == Metric.PEAK_MEMORY && builds.memoryLimit().isPresent()) {
            long limit = builds.memoryLimit().getAsLong();
            double headroom = Math.floor(100.0 * (limit - bound) / limit);
            if (headroom >= 1) {
                out.add(new BudgetSuggestion(key.test(), key.container(), key.phase(),
                        Metric.MEMORY_HEADROOM.key(), (long) headroom + "%", headroom, promise(builds)
                        + ", the share of the " + Metric.PEAK_MEMORY.format(limit) + " limit left at the peak's bound "
                        + Metric.PEAK_MEMORY.format(bound) + ", rounded down", values.size(), builds.testbed()));
            }
        }
        return out;
    }

    private static String promise(Builds builds) {
        return "expected to hold in " + COVERAGE_PERCENT + " % of unchanged builds on testbed " + builds.testbed();
    }

    /**
     * The one-sided {@value #COVERAGE_PERCENT} % prediction bound of the next value: log-normal where every value
     * is positive, normal otherwise.
     */
    public static double upperBound(List<Double> values) {
        return PredictionBound.of(values).upper(COVERAGE_PERCENT / 100.0);
    }
}
