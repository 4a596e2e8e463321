package io.vitals.internal.regression.suggest;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.BudgetText;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.stats.Samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Proposes budgets from measured runs: the 99th percentile (nearest rank, so with fewer than 100 runs it is the
 * highest one measured) plus {@value #HEADROOM_PERCENT} % headroom, rounded up to two significant digits in a unit a
 * person would write ({@code 330MiB}, {@code 17s}, {@code 850ms}, {@code 160%}, {@code 41}).
 *
 * <p>Why p99 and not the mean: a budget must hold in every ordinary run; the headroom covers a run a little worse
 * than any seen so far. For contention-sensitive figures (CPU time, average CPU) the history must come from the
 * runners the budget will be checked on, so that it holds their spread.
 */
@API(status = INTERNAL, since = "0.1")
public final class BudgetSuggester {

    public static final double PERCENTILE = 99;
    public static final int HEADROOM_PERCENT = 10;
    /** Fewer runs than this suggest nothing: the p99 of three runs says little. */
    public static final int MIN_RUNS = 5;

    /** Suggestions for every key with enough measurements and a {@code @ResourceBudget} attribute. */
    public List<BudgetSuggestion> suggest(Map<HistoryKey, List<Double>> measurements) {
        List<BudgetSuggestion> suggestions = new ArrayList<>();
        measurements.forEach((key, values) -> suggest(key, values).ifPresent(suggestions::add));
        return suggestions;
    }

    public Optional<BudgetSuggestion> suggest(HistoryKey key, List<Double> values) {
        // a figure without a budget attribute (wall time) gets none; nor does a floor, whose budget would come
        // from the lowest runs rather than p99
        Optional<Metric> metric = Metric.byKey(key.metric()).filter(m -> m.isBudgetable() && !m.isFloor());
        if (metric.isEmpty() || values.size() < MIN_RUNS) {
            return Optional.empty();
        }
        double p99 = Samples.percentile(values, PERCENTILE);
        double raw = p99 * (100 + HEADROOM_PERCENT) / 100.0;
        BudgetText readable = metric.get().unit().roundUp(raw);
        String basis = "p99 of " + values.size() + " runs (" + metric.get().format(p99) + ") + " + HEADROOM_PERCENT
                + " %, rounded up";
        return Optional.of(new BudgetSuggestion(key.test(), key.container(), key.phase(), metric.get().key(),
                readable.text(), readable.value(), basis, values.size()));
    }
}
