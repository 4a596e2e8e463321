package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apiguardian.api.API;

/**
 * Stored figures of earlier runs: per test key ({@link ReportNames#testKey}), per container, per metric, the values
 * of the last runs, oldest first. Comparing with the median of several runs keeps one noisy run from becoming the
 * yardstick. Immutable; {@link #withRun} returns a new baseline.
 */
@API(status = INTERNAL, since = "0.1")
public final class Baseline {

    private final Map<String, Map<String, Map<Metric, List<Double>>>> tests;

    public Baseline(Map<String, Map<String, Map<Metric, List<Double>>>> tests) {
        Map<String, Map<String, Map<Metric, List<Double>>>> copy = new TreeMap<>();
        tests.forEach((test, containers) -> {
            Map<String, Map<Metric, List<Double>>> containerCopy = new TreeMap<>();
            containers.forEach((container, metrics) -> {
                Map<Metric, List<Double>> metricCopy = new EnumMap<>(Metric.class);
                metrics.forEach((metric, values) -> metricCopy.put(metric, List.copyOf(values)));
                containerCopy.put(container, Collections.unmodifiableMap(metricCopy));
            });
            copy.put(test, Collections.unmodifiableMap(containerCopy));
        });
        this.tests = Collections.unmodifiableMap(copy);
    }

    public static Baseline empty() {
        return new Baseline(Map.of());
    }

    /** Test key → container → metric → values, oldest first; sorted by key. */
    public Map<String, Map<String, Map<Metric, List<Double>>>> tests() {
        return tests;
    }

    public boolean contains(String testKey) {
        return tests.containsKey(testKey);
    }

    /** The stored values of one metric, oldest first; empty when none. */
    public List<Double> history(String testKey, String container, Metric metric) {
        return tests.getOrDefault(testKey, Map.of()).getOrDefault(container, Map.of()).getOrDefault(metric, List.of());
    }

    public Optional<Map<Metric, List<Double>>> container(String testKey, String container) {
        return Optional.ofNullable(tests.getOrDefault(testKey, Map.of()).get(container));
    }

    /**
     * This baseline with each result's figures appended and every history trimmed to its last {@code runs}
     * values. Tests this run did not execute are kept as they are, so running a subset never erases the rest; so
     * are the figures of a container whose window overlapped another test's ({@link ContainerResult#isAttributable}).
     */
    public Baseline withRun(Collection<TestResult> results, int runs) {
        Map<String, Map<String, Map<Metric, List<Double>>>> next = new TreeMap<>();
        tests.forEach((test, containers) -> {
            Map<String, Map<Metric, List<Double>>> c = new TreeMap<>();
            containers.forEach((name, metrics) -> c.put(name, new EnumMap<>(metrics)));
            next.put(test, c);
        });
        for (TestResult result : results) {
            if (!result.isMeasured()) {
                continue; // failed before any container was measured, or skipped: its old entry stays as it was
            }
            if (result.containers().stream().noneMatch(ContainerResult::isAttributable)) {
                continue; // every figure also holds another test's usage: the old entry stays as it was
            }
            Map<String, Map<Metric, List<Double>>> containers = new TreeMap<>();
            for (ContainerResult container : result.containers()) {
                if (!container.isAttributable()) {
                    // overlapped with another test's window: its figures are not this test's, the stored ones stay
                    container(ReportNames.testKey(result), container.name())
                            .ifPresent(stored -> containers.put(container.name(), stored));
                    continue;
                }
                Map<Metric, List<Double>> metrics = new EnumMap<>(Metric.class);
                for (Metric metric : Metric.compared()) {
                    List<Double> values = new ArrayList<>(history(ReportNames.testKey(result), container.name(),
                            metric));
                    // a figure this run could not measure (block write on cgroup v1, no GPU visible) is no value,
                    // not a 0: the earlier ones stay
                    ReportedFigure.of(metric, container.usage()).value().ifPresent(values::add);
                    if (!values.isEmpty()) {
                        metrics.put(metric, values.subList(Math.max(0, values.size() - runs), values.size()));
                    }
                }
                containers.put(container.name(), metrics);
            }
            // Containers that no longer exist in the test are dropped with the rest of the old entry.
            next.put(ReportNames.testKey(result), containers);
        }
        return new Baseline(next);
    }

    /** The median of {@code values}, which must not be empty. */
    public static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Baseline && ((Baseline) obj).tests.equals(tests);
    }

    @Override
    public int hashCode() {
        return tests.hashCode();
    }
}
