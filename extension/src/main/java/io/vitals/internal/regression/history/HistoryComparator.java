package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.HistoryContext;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.stats.ChangePoints;
import io.vitals.internal.regression.stats.Evidence;
import io.vitals.internal.regression.stats.PredictionBound;
import io.vitals.internal.regression.stats.Samples;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * Compares a test's figures of this build with the earlier builds of the same testbed, metric by metric, using
 * {@link ChangeDetector}; the metric's tolerance is the minimum effect.
 *
 * <p>A build is the unit: a figure of this build is the median of its repetitions ({@link HistoryRun#buildValue}),
 * judged against the same figure of each earlier build on the same {@link Testbed}, so the invocations of a
 * repeated test are judged together when the last one finishes, and the verdict (and a failure) lands on it. A
 * container whose test has history only on other testbeds is not judged: its verdict says it is the first build on
 * its testbed and names the nearest one. The figures' trends go into the verdict for the reports, each with the
 * most recent step {@link ChangePoints} finds among the builds.
 */
@API(status = INTERNAL, since = "0.1")
public final class HistoryComparator {

    /**
     * The fewest earlier builds on a testbed any figure is judged against: fewer say too little of its spread, and
     * the testbed harness saw peak memory move 6 % between unchanged builds next to a busy machine
     * (docs/benchmarks.md, "Verdicts over time").
     */
    public static final int MIN_BUILDS = PredictionBound.MIN_BUILDS;

    /** The fewest earlier builds a trend is analysed for steps in: two on each side of a step. */
    static final int MIN_BUILDS_FOR_STEPS = 4;

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
     * @param testbedOf the testbed of each of the test's containers
     * @param build this build
     */
    public RegressionVerdict compare(TestResult result, Measurements earlier, Function<ContainerResult, Testbed> testbedOf,
            Build build) {
        TestIdentity identity = TestIdentity.of(result);
        boolean multiple = result.containers().size() > 1;
        if (identity.awaitsMoreRepetitions()) {
            return RegressionVerdict.none(identity.key());
        }
        Testbed first = result.containers().isEmpty() ? Testbed.unrecorded() : testbedOf.apply(result.containers().get(0));
        if (!history.hasTest(identity.key())) {
            return new RegressionVerdict(identity.key(), false, List.of(), List.of(), 0, false, multiple,
                    Optional.empty(), Optional.of(new HistoryContext(first.label(), 0, List.of(), List.of())));
        }
        List<String> newContainers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<RegressionFinding> findings = new ArrayList<>();
        List<HistoryContext.Trend> trends = new ArrayList<>();
        int builds = Integer.MAX_VALUE;
        Map<HistoryKey, Double> figures = Measurements.of(result);
        for (ContainerResult container : result.containers()) {
            if (!history.hasContainer(identity.key(), container.name())) {
                newContainers.add(container.name());
                continue;
            }
            Testbed testbed = testbedOf.apply(container);
            boolean anyOnTestbed = false;
            int mostBuilds = 0;
            for (Map.Entry<HistoryKey, Double> figure : figures.entrySet()) {
                HistoryKey key = figure.getKey();
                if (!key.container().equals(container.name())) {
                    continue;
                }
                List<HistoryRun> before = history.runs(key, testbed.id());
                anyOnTestbed |= !before.isEmpty();
                Optional<Metric> metric = Metric.byKey(key.metric()).filter(Metric::isCompared);
                if (metric.isEmpty() || before.isEmpty() || tolerances.of(metric.get()).isEmpty()) {
                    continue;
                }
                List<Double> repetitions = new ArrayList<>(identity.repetition().isPresent() ? earlier.values(key)
                        : List.of());
                repetitions.add(figure.getValue());
                double now = Samples.median(repetitions);
                // a step among the earlier builds makes the builds since it the norm once they are enough to judge
                // by (as change-point CI does): the step itself is told once, in the notes, not again as a
                // regression of every build after it; until then the builds before it stay the norm
                List<Double> values = before.stream().map(HistoryRun::buildValue).toList();
                List<ChangePoints.ChangePoint> points = steps(values, metric.get(),
                        tolerances.of(metric.get()).get());
                List<Integer> steps = points.stream().map(ChangePoints.ChangePoint::index).toList();
                Optional<HistoryContext.Step> step = points.stream().reduce((a, b) -> b)
                        .map(last -> named(new HistoryContext.Step(last.index(), "", last.before(), last.after(),
                                last.effectPercent(), last.p()), before));
                int[] norm = norm(values.size(), steps);
                mostBuilds = Math.max(mostBuilds, values.size());
                Optional<RegressionFinding> finding = Optional.empty();
                if (norm[1] - norm[0] >= PredictionBound.MIN_BUILDS) {
                    builds = Math.min(builds, norm[1] - norm[0]);
                    Percentage minimum = tolerances.of(metric.get()).get();
                    finding = judge(detector, values, steps, now, metric.get(), minimum)
                            .filter(ChangeDetector.Outcome::changed)
                            .map(outcome -> finding(key, metric.get(), outcome.evidence(), minimum));
                    finding.ifPresent(findings::add);
                }
                if (finding.isPresent() || step.isPresent()) {
                    trends.add(trend(key, before, build, now, step));
                }
                step.ifPresent(s -> notes.add((multiple ? "container '" + key.container() + "': " : "")
                        + (key.isPhase() ? "phase '" + key.phase() + "' " : "") + key.metric() + " stepped "
                        + String.format(Locale.ROOT, "%+.1f %%", s.effectPercent()) + " ("
                        + metric.get().format(s.before()) + " -> " + metric.get().format(s.after()) + ") at "
                        + s.build() + " on testbed " + testbed.id()));
            }
            if (!anyOnTestbed) {
                notes.add(firstOnTestbed(identity.key(), container, testbed, multiple));
            } else if (mostBuilds < PredictionBound.MIN_BUILDS) {
                notes.add((multiple ? "container '" + container.name() + "': " : "") + mostBuilds
                        + (mostBuilds == 1 ? " earlier build" : " earlier builds") + " on testbed " + testbed.id()
                        + ": figures are judged from " + PredictionBound.MIN_BUILDS + " builds on");
            }
        }
        findings.sort(Comparator.comparing(RegressionFinding::kind));
        boolean fails = failOnRegression && findings.stream().anyMatch(f -> f.kind() == RegressionFinding.Kind.REGRESSION);
        return new RegressionVerdict(identity.key(), true, newContainers, findings,
                builds == Integer.MAX_VALUE ? 0 : builds, fails, multiple, Optional.empty(),
                Optional.of(new HistoryContext(first.label(), builds == Integer.MAX_VALUE ? 0 : builds, notes,
                        trends)));
    }

    /** "first build on testbed tb-1 (...): not compared; nearest: tb-2, which differs in cpus 2 → 1". */
    private String firstOnTestbed(String test, ContainerResult container, Testbed testbed, boolean multiple) {
        Optional<Testbed> nearest = history.runs().entrySet().stream()
                .filter(e -> e.getKey().test().equals(test) && e.getKey().container().equals(container.name()))
                .flatMap(e -> e.getValue().stream()).map(HistoryRun::testbed).distinct().map(history::testbed)
                .max(Comparator.comparingInt(testbed::sharedFacts));
        return (multiple ? "container '" + container.name() + "': " : "") + "first build on testbed "
                + testbed.label() + ": not compared with builds of other testbeds"
                + nearest.map(n -> "; nearest: " + n.id() + (n.isRecorded() ? ", which differs in "
                        + String.join(", ", testbed.differences(n)) : " (" + n.label() + ")")).orElse("");
    }

    /**
     * The verdict on one figure of this build, {@code now}, from the figure of each earlier build on its testbed
     * ({@code values}, oldest first) and where they stepped: judged against the latest established level
     * ({@link #norm}), the builds after it being a new level not yet established. The whole rule in one place, for
     * the comparison and for replaying a stored history (the testbed harness).
     */
    public static Optional<ChangeDetector.Outcome> judge(ChangeDetector detector, List<Double> values,
            List<Integer> steps, double now, Metric metric, Percentage minimum) {
        int[] norm = norm(values.size(), steps);
        return detector.judgeBuild(values.subList(norm[0], norm[1]), values.subList(norm[1], values.size()), now,
                minimum.value(), metric.noiseFloor());
    }

    /** Where a figure's builds stepped: the first build of each new level, oldest first; none for few builds. */
    public static List<Integer> steps(List<Double> values, Metric metric, Percentage minimum, double alpha) {
        if (values.size() < MIN_BUILDS_FOR_STEPS) {
            return List.of();
        }
        return new ChangePoints(alpha, minimum.value(), metric.noiseFloor()).find(values).stream()
                .map(ChangePoints.ChangePoint::index).toList();
    }

    /** Where the earlier builds stepped (the first build of each new level), oldest first; none for few builds. */
    private List<ChangePoints.ChangePoint> steps(List<Double> values, Metric metric, Percentage minimum) {
        if (values.size() < MIN_BUILDS_FOR_STEPS) {
            return List.of();
        }
        return new ChangePoints(detector.alpha(), minimum.value(), metric.noiseFloor()).find(values);
    }

    /**
     * The builds that make the norm, {@code [from, to)}: the latest level between steps that holds enough builds to
     * judge by; the builds after it are a new level not yet established. Without such a level, all of them.
     */
    static int[] norm(int size, List<Integer> steps) {
        List<Integer> bounds = new ArrayList<>();
        bounds.add(0);
        bounds.addAll(steps);
        bounds.add(size);
        for (int i = bounds.size() - 1; i > 0; i--) {
            if (bounds.get(i) - bounds.get(i - 1) >= PredictionBound.MIN_BUILDS) {
                return new int[] {bounds.get(i - 1), bounds.get(i)};
            }
        }
        return new int[] {0, size};
    }

    /** The step with its build named: "build 9012-1 (commit 3f9a0c1, main, 2026-12-03)". */
    private HistoryContext.Step named(HistoryContext.Step step, List<HistoryRun> before) {
        String name = history.build(before.get(step.index())).describe();
        return new HistoryContext.Step(step.index(), name, step.before(), step.after(), step.effectPercent(),
                step.p());
    }

    private HistoryContext.Trend trend(HistoryKey key, List<HistoryRun> before, Build build, double now,
            Optional<HistoryContext.Step> step) {
        List<HistoryContext.Point> points = new ArrayList<>();
        for (HistoryRun run : before) {
            Build b = history.build(run);
            points.add(new HistoryContext.Point(b.id(), b.commit(), b.at(), run.buildValue()));
        }
        points.add(new HistoryContext.Point(build.id(), build.commit(), build.at(), now));
        return new HistoryContext.Trend(key.container(), key.phase(), key.metric(), points, step);
    }

    private static RegressionFinding finding(HistoryKey key, Metric metric, Evidence evidence, Percentage minimum) {
        RegressionFinding.Kind kind = metric.direction().isWorse(evidence.effectPercent())
                ? RegressionFinding.Kind.REGRESSION : RegressionFinding.Kind.IMPROVEMENT;
        return new RegressionFinding(key.container(), metric, kind, evidence.historyMedian(), evidence.newMedian(),
                evidence.effectPercent(), minimum.value(), evidence.historyRuns(),
                key.isPhase() ? Optional.of(key.phase()) : Optional.empty(), Optional.of(evidence));
    }

}
