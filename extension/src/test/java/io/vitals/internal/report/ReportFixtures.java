package io.vitals.internal.report;


import io.vitals.DataSize;
import io.vitals.Energy;
import io.vitals.GpuUsage;
import io.vitals.PeakMemory;
import io.vitals.Percentage;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.probe.HostFacts;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.Overlap;
import io.vitals.internal.result.TestResult;
import io.vitals.testing.SourcedFixtures;
import io.vitals.testing.UsageFixtures;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Realistic results for report tests: a container that loads a model, trains (memory climbs to a peak, CPU near
 * two cores), then evaluates, sampled every 50 ms. {@code scale} makes every figure heavier (1.3 = 30 % more).
 */
public final class ReportFixtures {

    /** cgroup v2 on 6.12 as root: the shape of the fixture's usage (probe HOST_CGROUP_V2, exact peak). */
    public static final HostShape SHAPE = HostShape.ofCgroup(true, "docker", true,
            new HostFacts(Optional.of("6.12.48-amd64"), true));

    public static final Instant START = Instant.parse("2026-03-01T10:15:30Z");
    public static final DataSize LIMIT = DataSize.ofGiB(2);

    private ReportFixtures() {
    }

    public static TestResult result(String className, String method) {
        return result(className, method, Optional.empty(), 1.0);
    }

    public static TestResult result(String className, String method, Optional<String> parameters, double scale) {
        ContainerResult tf = container("tf", scale, true, false);
        String display = parameters.orElse(method + "()");
        return new TestResult("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]"
                + parameters.map(p -> "/[test-template-invocation:#" + p.hashCode() + "]").orElse(""), className,
                method, display, parameters, TestResult.Outcome.PASSED, Optional.empty(), START,
                Duration.ofMillis(10_250), List.of(tf));
    }

    /** A test method that ended with {@code outcome}, for {@code why}, before any container was measured. */
    public static TestResult unmeasured(String className, String method, TestResult.Outcome outcome, String why,
            Instant startedAt, Duration duration) {
        return new TestResult("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className,
                method, method + "()", Optional.empty(), outcome, Optional.of(why), startedAt, duration, List.of());
    }

    /** {@code result} with {@code containers} in place of its own. */
    public static TestResult withContainers(TestResult result, ContainerResult... containers) {
        return new TestResult(result.uniqueId(), result.className(), result.methodName(), result.displayName(),
                result.parameters(), result.outcome(), result.failureMessage(), result.startedAt(), result.duration(),
                List.of(containers));
    }

    /** {@code result} as if its first container had used no GPU, with {@code budgets} as its budgets. */
    public static TestResult withoutGpu(TestResult result, List<BudgetResult> budgets) {
        ContainerResult c = result.containers().get(0);
        ContainerResult without = new ContainerResult(c.name(), c.image(), c.limits(),
                c.usage().toBuilder().gpu(GpuUsage.unavailable("no GPU visible: nvidia-smi not found")).build(), c.probeDescription(),
                c.hostShape(), c.measuredFromStart(),
                budgets, c.fault(), c.logTail());
        return new TestResult(result.uniqueId() + "-no-gpu", result.className(), result.methodName() + "NoGpu",
                result.displayName() + " no GPU", result.parameters(), result.outcome(), result.failureMessage(),
                result.startedAt(), result.duration(), List.of(without));
    }

    /**
     * {@code result} as if its first container had been measured by {@code probe}, which counted {@code blockRead}
     * and {@code blockWrite}: on cgroup v1 a buffered write is not the writer's, so its block write is absent.
     */
    public static TestResult measuredBy(TestResult result, ProbeKind probe, DataSize blockRead, DataSize blockWrite) {
        ContainerResult c = result.containers().get(0);
        ResourceUsage u = c.usage();
        ResourceUsage on = u.toBuilder().probe(probe).blockRead(blockRead).blockWrite(blockWrite).phases(List.of())
                .build();
        ContainerResult measured = new ContainerResult(c.name(), c.image(), c.limits(), on, probe.description(),
                c.hostShape(), c.measuredFromStart(), c.budgets(), c.fault(), c.logTail());
        return withContainers(result, measured);
    }

    /**
     * {@code result} as if the window of its first container, a shared one, had overlapped those of {@code others}
     * (display names of tests of the same class): its figures then include theirs.
     */
    public static TestResult overlapped(TestResult result, String... others) {
        ContainerResult c = result.containers().get(0);
        List<Overlap.OverlappedTest> tests = new ArrayList<>();
        for (String other : others) {
            tests.add(new Overlap.OverlappedTest(other, result.className()));
        }
        ContainerResult marked = new ContainerResult(c.name(), c.image(), c.limits(), c.usage(), c.probeDescription(),
                c.hostShape(), c.measuredFromStart(), c.budgets(), c.fault(), c.logTail(), new Overlap(tests));
        return withContainers(result, marked);
    }

    /**
     * {@code result} with its first container's usage sampled {@code points} times (50 ms apart): 201 points and
     * more make a window of 10 s, long enough for memory growth to be reported as a trend.
     */
    public static TestResult withPoints(TestResult result, int points) {
        ContainerResult c = result.containers().get(0);
        ContainerResult longer = new ContainerResult(c.name(), c.image(), c.limits(), usage(c.name(), 1.0, points),
                c.probeDescription(), c.hostShape(), c.measuredFromStart(), c.budgets(), c.fault(), c.logTail(),
                c.overlap());
        return withContainers(result, longer);
    }

    /**
     * A test that passed although its container was OOM-killed at 8.2 s: its budget allowed it
     * ({@code allowOomKill = true}), and its other budgets passed.
     */
    public static TestResult allowedOomKill(String className, String method) {
        return allowedOomKill(className, method, true);
    }

    /** As {@link #allowedOomKill(String, String)}; without budgets where {@code withBudgets} is false. */
    public static TestResult allowedOomKill(String className, String method, boolean withBudgets) {
        TestResult oom = oomKilled(className, method);
        ContainerResult c = oom.containers().get(0);
        ContainerResult kept = new ContainerResult(c.name(), c.image(), c.limits(), c.usage(), c.probeDescription(),
                c.hostShape(), c.measuredFromStart(), withBudgets
                        ? c.budgets().stream().filter(BudgetResult::passed).toList() : List.of(),
                c.fault(), c.logTail());
        return new TestResult(oom.uniqueId(), className, method, oom.displayName(), Optional.empty(),
                TestResult.Outcome.PASSED, Optional.empty(), START, oom.duration(), List.of(kept));
    }

    /** A failed test whose container exited at 3.0 s, before the test ended; its budgets passed on what was seen. */
    public static TestResult exitedEarly(String className, String method) {
        ContainerResult ok = container("tf", 1.0, true, false);
        ContainerFault exited = new ContainerFault(ContainerFault.Kind.EXITED, OptionalLong.of(137),
                Optional.of(Duration.ofMillis(3000)), "container 'tf' exited with code 137 at 3.0 s");
        ContainerResult tf = new ContainerResult(ok.name(), ok.image(), ok.limits(), ok.usage(),
                ok.probeDescription(), ok.hostShape(), ok.measuredFromStart(), ok.budgets(), Optional.of(exited),
                List.of());
        return new TestResult("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className,
                method, method + "()", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of(exited.description()), START, Duration.ofMillis(3_050), List.of(tf));
    }

    /** A failed test whose container was OOM-killed at 8.2 s, with a breached peakMemory budget. */
    public static TestResult oomKilled(String className, String method) {
        ContainerResult tf = container("tf", 1.0, true, true);
        return new TestResult("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className,
                method, method + "()", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of("Container 'tf' was OOM-killed"), START, Duration.ofMillis(10_250), List.of(tf));
    }

    /**
     * A failed test whose engine stopped answering: last seen at 1.9 s, silent at 2.4 s; its budgets passed on the
     * partial window.
     */
    public static TestResult engineGone(String className, String method) {
        ContainerResult ok = container("tf", 1.0, true, false);
        ContainerFault gone = new ContainerFault(ContainerFault.Kind.ENGINE_GONE, OptionalLong.empty(),
                Optional.of(Duration.ofMillis(2400)), Optional.of(Duration.ofMillis(1900)),
                "the Docker engine tcp://127.0.0.1:23750 stopped answering during the test: last seen at 1.9 s, no "
                        + "answer at 2.4 s (ConnectException: Connection refused)");
        ContainerResult tf = new ContainerResult(ok.name(), ok.image(), ok.limits(), ok.usage(),
                ok.probeDescription(), ok.hostShape(), ok.measuredFromStart(), ok.budgets(), Optional.of(gone),
                List.of("(no log: the Docker engine does not answer)"));
        return new TestResult("[engine:junit-jupiter]/[class:" + className + "]/[method:" + method + "()]", className,
                method, method + "()", Optional.empty(), TestResult.Outcome.FAILED,
                Optional.of(gone.description()), START, Duration.ofMillis(2_450), List.of(tf));
    }

    public static ContainerResult container(String name, double scale, boolean withBudgets, boolean oom) {
        ResourceUsage usage = usage(name, scale, 200);
        List<BudgetResult> budgets = new ArrayList<>();
        if (withBudgets) {
            double peak = usage.peakMemory().toBytes();
            double budget = oom ? peak * 0.8 : DataSize.ofMiB(1536).toBytes();
            budgets.add(new BudgetResult(Metric.PEAK_MEMORY, Optional.empty(),
                    peak <= budget ? BudgetStatus.OK : BudgetStatus.BREACHED, new Limit(Metric.PEAK_MEMORY,
                            oom ? DataSize.ofBytes((long) budget).toString() : "1.5GiB", budget),
                    OptionalDouble.of(peak), OptionalDouble.of(100 * (peak - budget) / budget),
                    usage.peak().describeMethod(), Optional.of(usage.peak().at()), Optional.empty(), false));
            budgets.add(new BudgetResult(Metric.CPU_TIME, Optional.empty(), BudgetStatus.OK,
                    new Limit(Metric.CPU_TIME, "60s", 60), OptionalDouble.of(Figures.seconds(usage.cpuTime())),
                    OptionalDouble.of(-50), "cgroup cpu.stat", Optional.empty(), Optional.of("exact counter"), false));
        }
        Optional<ContainerFault> fault = oom ? Optional.of(new ContainerFault(ContainerFault.Kind.OOM_KILL,
                OptionalLong.empty(), Optional.of(Duration.ofMillis(8200)),
                "container 'tf' was OOM-killed at 8.2 s: limit 2.0 GiB, peak " + usage.peakMemory()))
                : Optional.empty();
        ContainerLimits limits = new ContainerLimits(Optional.of(LIMIT), OptionalDouble.of(2.0), Optional.empty(),
                OptionalLong.of(512), Optional.of("device=0"));
        List<String> logTail = oom ? List.of("epoch 3/5", "Killed <b>tensorflow</b> & \"friends\"") : List.of();
        return new ContainerResult(name, "tensorflow/tensorflow:2.16.1", limits, usage,
                ProbeKind.HOST_CGROUP_V2.description(), SHAPE, true, budgets, fault, logTail);
    }

    public static ResourceUsage usage(String name, double scale, int points) {
        Duration interval = Duration.ofMillis(50);
        List<TimelinePoint> timeline = new ArrayList<>();
        long peakBytes = 0;
        Duration peakAt = Duration.ZERO;
        double peakCpu = 0;
        long peakPids = 0;
        for (int i = 0; i < points; i++) {
            double t = (double) i / Math.max(1, points - 1);
            long memory = Math.round(scale * (200e6 + 900e6 * Math.sin(Math.PI * t) + 20e6 * Math.sin(i * 0.7)));
            double cpu = scale * (t < 0.1 ? 40 : 180 + 15 * Math.sin(i * 0.3));
            long pids = Math.round(scale * (t < 0.1 ? 12 : 40 + (i % 5)));
            if (memory > peakBytes) {
                peakBytes = memory;
                peakAt = interval.multipliedBy(i);
            }
            peakCpu = Math.max(peakCpu, cpu);
            peakPids = Math.max(peakPids, pids);
            timeline.add(new TimelinePoint(interval.multipliedBy(i), cpu, DataSize.ofBytes(memory), pids,
                    Duration.ofMillis(Math.round(scale * 90 * i)), DataSize.ofBytes(Math.round(scale * 40_000 * i)),
                    DataSize.ofBytes(Math.round(scale * 12_000 * i)), DataSize.ofBytes(Math.round(scale * 5_000 * i)),
                    DataSize.ofBytes(Math.round(scale * 800 * i))));
        }
        TimelinePoint last = timeline.get(timeline.size() - 1);
        Duration wall = interval.multipliedBy(points - 1);
        ResourceSnapshot before = snapshot(START, DataSize.ofMiB(190), Duration.ofSeconds(1), 0);
        ResourceSnapshot after = snapshot(START.plus(wall), last.memory(), Duration.ofSeconds(1).plus(last.cpuTime()),
                1);
        PeakMemory peak = new PeakMemory(DataSize.ofBytes(peakBytes), peakAt, PeakMemory.Method.SAMPLED, interval);
        List<ResourceUsage.Phase> phases = new ArrayList<>();
        if (points > 10) {
            ResourceUsage phaseUsage = UsageFixtures.usage().container(name).image("tensorflow/tensorflow:2.16.1")
                    .wallTime(Duration.ofSeconds(2)).before(before).after(after).peak(peak)
                    .memoryLimit(Optional.of(LIMIT)).cpuTime(Duration.ofSeconds(3))
                    .cpuUserTime(Duration.ofSeconds(2)).cpuSystemTime(Duration.ofSeconds(1))
                    .averageCpuPercent(Percentage.of(150)).peakCpuPercent(Percentage.of(190)).peakPids(40)
                    .sourcedFigures(sourced(scale / 3, peakAt, peakBytes))
                    .timeline(new Timeline(List.of(), interval, 0, 0)).build();
            phases.add(new ResourceUsage.Phase("load", Duration.ZERO, phaseUsage));
            phases.add(new ResourceUsage.Phase("train", wall.dividedBy(10), phaseUsage));
            phases.add(new ResourceUsage.Phase("evaluate", wall.multipliedBy(8).dividedBy(10), phaseUsage));
        }
        double wallSeconds = Math.max(0.001, Figures.seconds(wall));
        return UsageFixtures.usage().container(name).image("tensorflow/tensorflow:2.16.1")
                .probe(ProbeKind.HOST_CGROUP_V2).wallTime(wall).before(before).after(after).peak(peak)
                .peakMemoryHighWaterMark(Optional.of(DataSize.ofBytes(peakBytes + 4096)))
                .memoryLimit(Optional.of(LIMIT)).cpuTime(last.cpuTime())
                .cpuUserTime(last.cpuTime().multipliedBy(8).dividedBy(10)).cpuSystemTime(last.cpuTime().dividedBy(5))
                .averageCpuPercent(Percentage.of(100 * Figures.seconds(last.cpuTime()) / wallSeconds))
                .peakCpuPercent(Percentage.of(peakCpu)).throttledPeriods(7).throttledTime(Duration.ofMillis(120))
                .blockRead(last.blockRead()).blockWrite(last.blockWrite()).networkReceived(last.networkReceived())
                .networkSent(last.networkSent()).peakPids(peakPids)
                .pressureStallCpu(Optional.of(new PressureStall(Duration.ofMillis(300), Duration.ofMillis(10))))
                .timeline(new Timeline(timeline, interval, points, 0)).phases(phases)
                .gpu(new GpuUsage(Optional.of(DataSize.ofBytes(Math.round(scale * 1234 * 1024 * 1024))),
                        Optional.of(Percentage.of(scale * 63.5)), Optional.of(Percentage.of(scale * 41.25)),
                        Optional.of(Energy.ofJoules(scale * 1500)), true, List.of("GPU-5f1c2d3e"), false, 20,
                        Optional.empty(), gpuTimeline(scale)))
                .sourcedFigures(sourced(scale, peakAt, peakBytes))
                .build();
    }

    /**
     * Every sourced figure known ({@link SourcedFixtures#every}): major page faults, and the peak's composition read
     * at the peak, with values the report tests check.
     */
    public static SourcedFigures sourced(double scale, Duration peakAt, long peakBytes) {
        return SourcedFixtures.every(scale).set(Metric.MAJOR_PAGE_FAULTS, Math.round(scale * 321))
                .set(Metric.PEAK_ANONYMOUS_MEMORY, Math.round(peakBytes * 0.7))
                .set(Metric.PEAK_PAGE_CACHE, Math.round(peakBytes * 0.25))
                .set(Metric.PEAK_SHARED_MEMORY, Math.round(peakBytes * 0.05))
                .set(Metric.PEAK_KERNEL_MEMORY, 12L * 1024 * 1024).build()
                .withAtPeak(new SourcedFigures.AtPeak(peakAt, peakBytes));
    }

    /**
     * 20 GPU samples 500 ms apart, peaking at sample 12 with the usage's peak; sample 3 has no utilisation; no SM
     * share (as from nvidia-smi).
     */
    public static List<GpuUsage.Sample> gpuTimeline(double scale) {
        List<GpuUsage.Sample> samples = new ArrayList<>();
        long peak = Math.round(scale * 1234 * 1024 * 1024);
        for (int i = 0; i < 20; i++) {
            long memory = i == 12 ? peak : Math.round(peak * (0.4 + i / 40.0));
            samples.add(new GpuUsage.Sample(Duration.ofMillis(500L * i), DataSize.ofBytes(memory),
                    i == 3 ? Optional.empty() : Optional.of(Percentage.of(60 + i % 7)),
                    Optional.of(Percentage.of(10)), Optional.empty(), OptionalDouble.of(230 + i),
                    OptionalDouble.of(50 + i / 4), OptionalDouble.of(1500)));
        }
        return samples;
    }

    private static ResourceSnapshot snapshot(Instant at, DataSize memory, Duration cpu, long oomKills) {
        return UsageFixtures.snapshot().takenAt(at).probe(ProbeKind.HOST_CGROUP_V2).memoryUsage(memory)
                .memoryCharged(memory.plus(DataSize.ofMiB(30))).memoryLimit(Optional.of(LIMIT))
                .pageCache(DataSize.ofMiB(30)).anonymousMemory(memory).cpuTime(cpu)
                .cpuUserTime(cpu.multipliedBy(8).dividedBy(10)).cpuSystemTime(cpu.dividedBy(5)).pids(40)
                .blockRead(DataSize.ofBytes(3_000_000)).blockWrite(DataSize.ofBytes(1_000_000))
                .networkReceived(DataSize.ofBytes(20_000)).networkSent(DataSize.ofBytes(3_000)).oomKills(oomKills)
                .throttledPeriods(7).throttledTime(Duration.ofMillis(120))
                .cpuPressure(Optional.of(new PressureStall(Duration.ofMillis(300), Duration.ofMillis(10)))).build();
    }

    /** {@code result} ended with {@code outcome}, its first container judged on {@code budgets} alone. */
    public static TestResult withBudgets(TestResult result, TestResult.Outcome outcome, List<BudgetResult> budgets) {
        ContainerResult c = result.containers().get(0);
        ContainerResult judged = new ContainerResult(c.name(), c.image(), c.limits(), c.usage(), c.probeDescription(),
                c.hostShape(), c.measuredFromStart(), budgets, c.fault(), c.logTail());
        return new TestResult(result.uniqueId(), result.className(), result.methodName(), result.displayName(),
                result.parameters(), outcome, outcome == TestResult.Outcome.FAILED
                        ? Optional.of("Resource budget exceeded") : Optional.empty(),
                result.startedAt(), result.duration(), List.of(judged));
    }

    /**
     * A ceiling budget on {@code metric}, {@code limit} and {@code actual} in the metric's unit (bytes, seconds):
     * breached when the actual is above the limit, with its margin; {@link BudgetStatus#NOT_MEASURABLE} when
     * {@code actual} is NaN.
     */
    public static BudgetResult budget(Metric metric, String limitText, double limit, double actual) {
        if (Double.isNaN(actual)) {
            return new BudgetResult(metric, Optional.empty(), BudgetStatus.NOT_MEASURABLE,
                    new Limit(metric, limitText, limit), OptionalDouble.of(0), OptionalDouble.empty(),
                    "not measured", Optional.empty(), Optional.of("this host cannot measure " + metric.key()), false);
        }
        return new BudgetResult(metric, Optional.empty(), actual > limit ? BudgetStatus.BREACHED : BudgetStatus.OK,
                new Limit(metric, limitText, limit), OptionalDouble.of(actual),
                OptionalDouble.of(100 * (actual - limit) / limit), "sampled", Optional.empty(), Optional.empty(),
                false);
    }
}
