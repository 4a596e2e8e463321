package io.vitals.internal.regression;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.stats.PredictionBound;
import io.vitals.internal.regression.stats.Samples;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;

/**
 * {@link HistoryReplay}'s last part: how budgets suggested from the first builds of a testbed hold on the builds
 * after them (in the order run and in 200 shuffled orders), beside the bounds and "highest + 10 %" they replace, and
 * how many injected builds each budget would have failed.
 */
final class BudgetHoldOut {

    private final PrintStream print;

    BudgetHoldOut(PrintStream print) {
        this.print = print;
    }

    void run(List<ReplayBuild> single, List<ReplayBuild> mem, List<ReplayBuild> cpu) {
        print.println("== Suggested budgets, held out (single builds) ==");
        BudgetSuggester suggester = new BudgetSuggester();
        for (Metric metric : List.of(Metric.PEAK_MEMORY, Metric.CPU_TIME, Metric.PEAK_PIDS)) {
            HistoryKey key = new HistoryKey("replay", "tf", "", metric.key());
            List<Double> values = single.stream().map(b -> b.figures().get(metric)).toList();
            for (boolean shuffled : new boolean[] {false, true}) {
                int pairs = 0;
                int breaches = 0;
                List<Double> tightness = new ArrayList<>();
                Random random = new Random(32);
                for (int order = 0; order < (shuffled ? 200 : 1); order++) {
                    List<Double> sequence = new ArrayList<>(values);
                    if (shuffled) {
                        Collections.shuffle(sequence, random);
                    }
                    for (int k = BudgetSuggester.MIN_BUILDS; k < sequence.size(); k++) {
                        List<Double> first = sequence.subList(0, k);
                        BudgetSuggestion s = suggester.suggest(key, new BudgetSuggester.Builds("replay", first,
                                OptionalLong.empty())).orElse(null);
                        if (s == null) {
                            continue;
                        }
                        double max = Collections.max(first);
                        tightness.add(s.baseValue() / metric.unit().roundUp(max * 1.1).value());
                        for (double later : sequence.subList(k, sequence.size())) {
                            pairs++;
                            breaches += later > s.baseValue() ? 1 : 0;
                        }
                    }
                }
                print.printf(Locale.ROOT, "%s, %s: %d later builds judged, %d over the budget (%.2f %%; promised: "
                        + "at most 1 %%); budget / (highest build + 10 %%): median %.2f%n", metric.key(),
                        shuffled ? "builds in 200 shuffled orders" : "builds in the order run (quiet, then busy)",
                        pairs, breaches, pairs == 0 ? 0 : 100.0 * breaches / pairs,
                        tightness.isEmpty() ? Double.NaN : Samples.median(tightness));
            }
        }
        // the rules side by side, held out the same way (200 shuffled orders, a budget from the first k builds)
        for (Metric metric : List.of(Metric.PEAK_MEMORY, Metric.CPU_TIME)) {
            List<Double> values = single.stream().map(b -> b.figures().get(metric)).toList();
            StringBuilder line = new StringBuilder("  " + metric.key() + ", over the budget in 200 shuffled orders:");
            for (String rule : List.of("0.99", "0.999", "max+10%")) {
                int pairs = 0;
                int over = 0;
                Random random = new Random(32);
                for (int order = 0; order < 200; order++) {
                    List<Double> sequence = new ArrayList<>(values);
                    Collections.shuffle(sequence, random);
                    for (int k = BudgetSuggester.MIN_BUILDS; k < sequence.size(); k++) {
                        List<Double> first = sequence.subList(0, k);
                        double max = Collections.max(first);
                        double budget = rule.equals("max+10%") ? max * 1.1 : Math.max(max,
                                PredictionBound.of(first)
                                        .upper(Double.parseDouble(rule)));
                        for (double later : sequence.subList(k, sequence.size())) {
                            pairs++;
                            over += later > budget ? 1 : 0;
                        }
                    }
                }
                line.append(String.format(Locale.ROOT, " %s %.2f %%;", rule.startsWith("0") ? "bound "
                        + rule : rule, 100.0 * over / pairs));
            }
            print.println(line);
        }
        for (List<ReplayBuild> injected : List.of(mem, cpu)) {
            if (injected.isEmpty()) {
                continue;
            }
            Metric metric = injected == mem ? Metric.PEAK_MEMORY : Metric.CPU_TIME;
            List<Double> all = single.stream().map(b -> b.figures().get(metric)).toList();
            BudgetSuggestion s = suggester.suggest(new HistoryKey("replay", "tf", "", metric.key()),
                    new BudgetSuggester.Builds("replay", all, OptionalLong.empty())).orElseThrow();
            long caught = injected.stream().filter(b -> b.figures().get(metric) > s.baseValue()).count();
            print.printf(Locale.ROOT, "%s builds against the budget %s = \"%s\" suggested from all %d single builds: "
                    + "%d of %d over it%n", injected.get(0).label().replaceAll("-\\d+$", ""), metric.key(), s.value(),
                    all.size(), caught, injected.size());
        }
    }
}
