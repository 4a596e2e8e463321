package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * Compares a test's figures with the median of its baseline runs. A metric counts as moved when it changed by more
 * than its tolerance (in % of the baseline) <em>and</em> by more than the metric's noise floor, so that tiny
 * figures (a few KiB of I/O, a few ms of CPU) do not swing by hundreds of percent.
 */
@API(status = INTERNAL, since = "0.1")
public final class BaselineComparator {

    private final Baseline baseline;
    private final Tolerances tolerances;
    private final boolean failOnRegression;
    private final Optional<String> unusable;

    /**
     * @param failOnRegression whether a regression should fail the test ({@code fail} mode and not updating)
     */
    public BaselineComparator(Baseline baseline, Tolerances tolerances, boolean failOnRegression) {
        this(baseline, tolerances, failOnRegression, Optional.empty());
    }

    private BaselineComparator(Baseline baseline, Tolerances tolerances, boolean failOnRegression,
            Optional<String> unusable) {
        this.baseline = baseline;
        this.tolerances = tolerances;
        this.failOnRegression = failOnRegression;
        this.unusable = unusable;
    }

    /**
     * A comparator for a baseline that cannot be read: every verdict says {@code reason}, and fails the test when
     * {@code failsTest} ({@code fail} mode).
     */
    public static BaselineComparator unusable(String reason, boolean failsTest) {
        return new BaselineComparator(Baseline.empty(), new Tolerances(Map.of()), failsTest, Optional.of(reason));
    }

    public RegressionVerdict compare(TestResult result) {
        String key = ReportNames.testKey(result);
        boolean multiple = result.containers().size() > 1;
        if (unusable.isPresent()) {
            return RegressionVerdict.unusable(key, unusable.get(), failOnRegression, multiple);
        }
        if (!baseline.contains(key)) {
            return new RegressionVerdict(key, false, List.of(), List.of(), 0, false, multiple);
        }
        List<String> newContainers = new ArrayList<>();
        List<RegressionFinding> findings = new ArrayList<>();
        int runs = Integer.MAX_VALUE;
        for (ContainerResult container : result.containers()) {
            if (!container.isAttributable()) {
                continue; // its figures include another test's usage: no regression or improvement of this one
            }
            Optional<Map<Metric, List<Double>>> stored = baseline.container(key, container.name());
            if (stored.isEmpty()) {
                newContainers.add(container.name());
                continue;
            }
            for (Metric metric : Metric.compared()) {
                List<Double> history = stored.get().getOrDefault(metric, List.of());
                Optional<Percentage> tolerance = tolerances.of(metric);
                // empty: not measured in this run (block write on cgroup v1, no GPU visible), so nothing to
                // compare; its 0 against a stored figure would read as an improvement
                OptionalDouble now = ReportedFigure.of(metric, container.usage()).value();
                if (history.isEmpty() || tolerance.isEmpty() || now.isEmpty()) {
                    continue;
                }
                runs = Math.min(runs, history.size());
                compare(container.name(), metric, history, now.getAsDouble(), tolerance.get())
                        .ifPresent(findings::add);
            }
        }
        findings.sort(Comparator.comparing(RegressionFinding::kind));
        boolean fails = failOnRegression && findings.stream().anyMatch(f -> f.kind() == RegressionFinding.Kind.REGRESSION);
        return new RegressionVerdict(key, true, newContainers, findings, runs == Integer.MAX_VALUE ? 0 : runs, fails,
                multiple);
    }

    private static Optional<RegressionFinding> compare(String container, Metric metric, List<Double> history,
            double now, Percentage tolerance) {
        double base = Baseline.median(history);
        double delta = now - base;
        if (Math.abs(delta) <= metric.noiseFloor()) {
            return Optional.empty();
        }
        double change = base == 0 ? Double.POSITIVE_INFINITY * Math.signum(delta) : 100.0 * delta / base;
        if (Math.abs(change) <= tolerance.value()) {
            return Optional.empty();
        }
        RegressionFinding.Kind kind = metric.direction().isWorse(delta) ? RegressionFinding.Kind.REGRESSION
                : RegressionFinding.Kind.IMPROVEMENT;
        return Optional.of(new RegressionFinding(container, metric, kind, base, now, change, tolerance.value(),
                history.size()));
    }
}
