package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.stats.Evidence;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Compares a test's measurements of this run with its history, metric by metric, using {@link ChangeDetector}; the
 * metric's tolerance is the minimum effect. The invocations of a repeated test are compared as one sample when the
 * last one finishes, so that the verdict (and a failure) lands on the last repetition.
 */
@API(status = INTERNAL, since = "0.1")
public final class HistoryComparator {

    /**
     * The fewest earlier runs a figure that contention inflates (CPU time, average CPU) is judged against. With
     * fewer, the runs before may all come from one machine state, and the noise harness saw quiet runs flagged
     * against them (docs/benchmarks.md, "Noise and detection power"); the figure waits until the history holds this
     * many runs. Figures of the workload alone (peak memory) are judged from the first earlier run.
     */
    public static final int MIN_RUNS_CONTENTION_SENSITIVE = ChangeDetector.ROBUST_Z_MIN_HISTORY;

    private final History history;
    private final Tolerances tolerances;
    private final ChangeDetector detector;
    private final boolean failOnRegression;

    public HistoryComparator(History history, Tolerances tolerances, ChangeDetector detector,
            boolean failOnRegression) {
        this.history = history;
        this.tolerances = tolerances;
        this.detector = detector;
        this.failOnRegression = failOnRegression;
    }

    /**
     * @param earlier this run's measurements so far, not yet holding {@code result}: the earlier repetitions
     */
    public RegressionVerdict compare(TestResult result, Measurements earlier) {
        TestIdentity identity = TestIdentity.of(result);
        boolean multiple = result.containers().size() > 1;
        if (!history.hasTest(identity.key())) {
            return new RegressionVerdict(identity.key(), false, List.of(), List.of(), 0, false, multiple);
        }
        if (identity.awaitsMoreRepetitions()) {
            return RegressionVerdict.none(identity.key());
        }
        List<String> newContainers = new ArrayList<>();
        for (ContainerResult container : result.containers()) {
            if (!history.hasContainer(identity.key(), container.name())) {
                newContainers.add(container.name());
            }
        }
        List<RegressionFinding> findings = new ArrayList<>();
        int runs = Integer.MAX_VALUE;
        for (Map.Entry<HistoryKey, Double> figure : Measurements.of(result).entrySet()) {
            HistoryKey key = figure.getKey();
            Optional<Metric> metric = Metric.byKey(key.metric()).filter(Metric::isCompared);
            List<HistoryRun> before = history.runs(key);
            if (metric.isEmpty() || before.isEmpty() || tolerances.of(metric.get()).isEmpty()
                    || metric.get().isContentionSensitive() && before.size() < MIN_RUNS_CONTENTION_SENSITIVE) {
                continue;
            }
            runs = Math.min(runs, before.size());
            List<Double> now = new ArrayList<>(identity.repetition().isPresent() ? earlier.values(key) : List.of());
            now.add(figure.getValue());
            Percentage minimum = tolerances.of(metric.get()).get();
            detector.compare(now, history.values(key), minimum.value(), metric.get().noiseFloor(), seed(key))
                    .filter(ChangeDetector.Outcome::changed)
                    .ifPresent(outcome -> findings.add(finding(key, metric.get(), outcome.evidence(), minimum)));
        }
        findings.sort(Comparator.comparing(RegressionFinding::kind));
        boolean fails = failOnRegression && findings.stream().anyMatch(f -> f.kind() == RegressionFinding.Kind.REGRESSION);
        return new RegressionVerdict(identity.key(), true, newContainers, findings,
                runs == Integer.MAX_VALUE ? 0 : runs, fails, multiple);
    }

    private static RegressionFinding finding(HistoryKey key, Metric metric, Evidence evidence, Percentage minimum) {
        RegressionFinding.Kind kind = metric.direction().isWorse(evidence.effectPercent())
                ? RegressionFinding.Kind.REGRESSION : RegressionFinding.Kind.IMPROVEMENT;
        return new RegressionFinding(key.container(), metric, kind, evidence.historyMedian(), evidence.newMedian(),
                evidence.effectPercent(), minimum.value(), evidence.historyRuns(),
                key.isPhase() ? Optional.of(key.phase()) : Optional.empty(), Optional.of(evidence));
    }

    // The same key always resamples the same way; String.hashCode is specified, so the seed is stable across JVMs.
    private static long seed(HistoryKey key) {
        return key.toString().hashCode();
    }
}
