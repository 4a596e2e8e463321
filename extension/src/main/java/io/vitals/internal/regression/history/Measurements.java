package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

/**
 * The measurements of the current run, per {@link HistoryKey}: one value per test, or one per repetition. Not
 * thread-safe; the report session guards it.
 */
@API(status = INTERNAL, since = "0.1")
public final class Measurements {

    private final Map<HistoryKey, List<Double>> values = new TreeMap<>();

    /**
     * Every figure of {@code result}: each metric of each container, for the whole test and for each phase. A
     * container whose window overlapped another test's has none: its figures include that test's usage, so they
     * are neither kept, compared nor made into a suggested budget.
     */
    public static Map<HistoryKey, Double> of(TestResult result) {
        String test = TestIdentity.of(result).key();
        Map<HistoryKey, Double> figures = new TreeMap<>();
        for (ContainerResult container : result.containers()) {
            if (!container.isAttributable()) {
                continue;
            }
            add(figures, test, container.name(), "", container.usage());
            for (ResourceUsage.Phase phase : container.usage().phases()) {
                add(figures, test, container.name(), phase.name(), phase.usage());
            }
        }
        return figures;
    }

    private static void add(Map<HistoryKey, Double> figures, String test, String container, String phase,
            ResourceUsage usage) {
        for (Metric metric : Metric.compared()) {
            // a figure not measured in this run (block write on cgroup v1, no GPU visible) is no measurement, not a
            // 0: it is neither kept, compared nor made into a suggested budget
            ReportedFigure.of(metric, usage).value().ifPresent(value -> figures.put(
                    new HistoryKey(test, container, phase, metric.key()), value));
        }
    }

    public void add(TestResult result) {
        of(result).forEach((key, value) -> values.computeIfAbsent(key, k -> new ArrayList<>()).add(value));
    }

    /** This run's values of {@code key} so far. */
    public List<Double> values(HistoryKey key) {
        return Collections.unmodifiableList(values.getOrDefault(key, List.of()));
    }

    public Map<HistoryKey, List<Double>> all() {
        Map<HistoryKey, List<Double>> copy = new TreeMap<>();
        values.forEach((key, list) -> copy.put(key, List.copyOf(list)));
        return copy;
    }
}
