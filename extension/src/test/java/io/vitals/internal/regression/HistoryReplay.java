package io.vitals.internal.regression;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryComparator;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.stats.ChangePoints;
import io.vitals.internal.regression.stats.Samples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;


/**
 * Replays the testbed harness's builds ({@code examples/setup/testbeds.sh}) with the library's own rules and prints
 * the figures docs/benchmarks.md ("Verdicts over time") quotes: false regressions with builds judged against their
 * own testbed (and what judging across testbeds would have flagged), false alarms on one testbed quiet and next to a
 * busy core, detections of the injected regressions, whether the change-point analysis names the build a step was
 * spliced in at, and how suggested budgets hold on the builds after the ones they came from. A command, not a test.
 *
 * <p>Each build's figures are read from its own per-test JSON files (the median of its repetitions, as the history
 * takes it), so the replay sees every build even where the history file kept only the newest 20 per testbed; each
 * build is judged against the builds before it by {@link HistoryComparator#judge}, the rule the reports apply.
 *
 * <p>Usage: {@code java -cp <extension test classpath> io.vitals.internal.regression.HistoryReplay target/testbeds}
 */
public final class HistoryReplay {

    private final Path out;
    private final PrintStream print;

    private HistoryReplay(Path out, PrintStream print) {
        this.out = out;
        this.print = print;
    }

    public static void main(String[] args) throws IOException {
        new HistoryReplay(Path.of(args.length > 0 ? args[0] : "target/testbeds"),
                new PrintStream(System.out, true, StandardCharsets.UTF_8)).run();
    }

    private void run() throws IOException {
        List<ReplayBuild> cross = builds("cross", "cross-");
        List<ReplayBuild> single = builds("single", "single-");
        List<ReplayBuild> warmup = builds("warmup", "warmup-");
        if (!warmup.isEmpty()) {
            warmup(warmup, Stream.concat(cross.stream(), single.stream()).toList());
        }
        if (!cross.isEmpty()) {
            cross(cross);
        }
        if (!single.isEmpty()) {
            single(single);
            List<ReplayBuild> mem = builds("inject", "mem10-");
            List<ReplayBuild> cpu = builds("inject", "cpu25-");
            if (!mem.isEmpty() || !cpu.isEmpty()) {
                inject(single, mem, cpu);
            }
            new BudgetHoldOut(print).run(single, mem, cpu);
        }
    }

    private List<ReplayBuild> builds(String phase, String prefix) throws IOException {
        return ReplayBuild.read(out.resolve(phase), prefix, print);
    }

    /** The regressions of each build judged against the builds before it that {@code sameTestbed} keeps. */
    private static Map<String, List<String>> judged(List<ReplayBuild> builds, boolean sameTestbed) {
        Map<String, List<String>> flagged = new LinkedHashMap<>();
        for (int i = 0; i < builds.size(); i++) {
            ReplayBuild now = builds.get(i);
            List<String> found = new ArrayList<>();
            for (Metric metric : ReplayBuild.FIGURES.keySet()) {
                List<Double> before = new ArrayList<>();
                for (ReplayBuild earlier : builds.subList(0, i)) {
                    if ((!sameTestbed || earlier.testbed().equals(now.testbed()))
                            && earlier.figures().containsKey(metric)) {
                        before.add(earlier.figures().get(metric));
                    }
                }
                if (!now.figures().containsKey(metric) || before.size() < HistoryComparator.MIN_BUILDS) {
                    continue;
                }
                ReplayJudge.judge(before, now.figures().get(metric), metric)
                        .filter(ChangeDetector.Outcome::changed)
                        .filter(o -> metric.direction().isWorse(o.evidence().effectPercent()))
                        .ifPresent(o -> found.add(metric.key() + " " + o.evidence().describe()));
            }
            flagged.put(now.label(), found);
        }
        return flagged;
    }

    private void cross(List<ReplayBuild> builds) {
        print.println("== Two testbeds, one history (cross): " + builds.size() + " builds ==");
        spread(builds);
        Map<String, List<String>> same = judged(builds, true);
        long judgedBuilds = builds.stream().filter(b -> builds.stream().filter(e -> e.testbed().equals(b.testbed()))
                .toList().indexOf(b) >= HistoryComparator.MIN_BUILDS).count();
        report("judged against their own testbed (what Vitals does)", same, judgedBuilds);
        report("judged across testbeds (the same rule, testbeds ignored)", judged(builds, false),
                builds.size() - HistoryComparator.MIN_BUILDS);
        // a build that moved to the other runner class: each build judged against every build of the other testbed
        for (String testbed : builds.stream().map(ReplayBuild::testbed).distinct().sorted().toList()) {
            List<ReplayBuild> others = builds.stream().filter(b -> !b.testbed().equals(testbed)).toList();
            int flagged = 0;
            List<String> what = new ArrayList<>();
            List<ReplayBuild> own = builds.stream().filter(b -> b.testbed().equals(testbed)).toList();
            for (ReplayBuild now : own) {
                List<String> found = new ArrayList<>();
                for (Metric metric : ReplayBuild.FIGURES.keySet()) {
                    List<Double> before = others.stream().map(b -> b.figures().get(metric)).toList();
                    ReplayJudge.judge(before, now.figures().get(metric), metric)
                            .filter(ChangeDetector.Outcome::changed)
                            .ifPresent(o -> found.add(metric.key() + String.format(Locale.ROOT, " %+.1f %%",
                                    o.evidence().effectPercent())));
                }
                flagged += found.isEmpty() ? 0 : 1;
                if (!found.isEmpty() && what.size() < 3) {
                    what.add(now.label() + " " + found);
                }
            }
            print.printf(Locale.ROOT, "a testbed %s build judged against the %d testbed %s builds, as a history that "
                    + "ignored testbeds would judge a runner change: %d of %d flagged (e.g. %s)%n", testbed,
                    others.size(), others.isEmpty() ? "-" : others.get(0).testbed(), flagged, own.size(), what);
        }
        print.println();
    }

    /**
     * The warm-up builds (the first after the image reached each engine, in no history) beside the median of the
     * later builds on their testbed: what a cold page cache adds.
     */
    private void warmup(List<ReplayBuild> warmup, List<ReplayBuild> later) {
        print.println("== Warm-up builds, in no history: the first build after the image reached each engine ==");
        for (ReplayBuild build : warmup) {
            StringBuilder line = new StringBuilder("  " + build.label() + " on testbed " + build.testbed() + ":");
            for (Metric metric : ReplayBuild.FIGURES.keySet()) {
                List<Double> values = later.stream().filter(b -> b.testbed().equals(build.testbed()))
                        .map(b -> b.figures().get(metric)).filter(v -> v != null).toList();
                Double value = build.figures().get(metric);
                if (value == null) {
                    continue;
                }
                line.append(' ').append(metric.key()).append(' ').append(metric.format(value));
                if (!values.isEmpty()) {
                    double median = Samples.median(values);
                    line.append(String.format(Locale.ROOT, " (%+.1f %% from the later builds' median %s)",
                            median == 0 ? 0 : 100 * (value - median) / median, metric.format(median)));
                }
                line.append(';');
            }
            print.println(line);
        }
        print.println();
    }

    private void report(String how, Map<String, List<String>> flagged, long judgedBuilds) {
        long builds = flagged.values().stream().filter(list -> !list.isEmpty()).count();
        print.printf(Locale.ROOT, "%s: %d of %d judged builds flagged a regression%n", how, builds, judgedBuilds);
        flagged.forEach((build, found) -> found.forEach(f -> print.println("  " + build + ": " + f)));
    }

    private void spread(List<ReplayBuild> builds) {
        for (Metric metric : ReplayBuild.FIGURES.keySet()) {
            StringBuilder line = new StringBuilder("  " + metric.key() + ":");
            for (String testbed : builds.stream().map(ReplayBuild::testbed).distinct().sorted().toList()) {
                List<Double> values = builds.stream().filter(b -> b.testbed().equals(testbed))
                        .map(b -> b.figures().get(metric)).filter(v -> v != null).toList();
                if (!values.isEmpty()) {
                    line.append(String.format(Locale.ROOT, " testbed %s median %s [%s, %s] CV %.1f %% (%d builds);",
                            testbed, metric.format(Samples.median(values)),
                            metric.format(Collections.min(values)), metric.format(Collections.max(values)), cv(values),
                            values.size()));
                }
            }
            print.println(line);
        }
    }

    private static double cv(List<Double> values) {
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double sd = Math.sqrt(values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum()
                / Math.max(1, values.size() - 1));
        return mean == 0 ? 0 : 100 * sd / mean;
    }

    private void single(List<ReplayBuild> builds) {
        int half = builds.size() / 2;
        print.println("== One testbed (single): " + half + " quiet builds, then " + (builds.size() - half)
                + " next to a busy core; loads " + builds.stream().map(ReplayBuild::load).toList() + " ==");
        spread(builds);
        Map<String, List<String>> flagged = judged(builds, true);
        report("judged against the builds before them", flagged, builds.size() - HistoryComparator.MIN_BUILDS);
        print.println();
    }

    private void inject(List<ReplayBuild> single, List<ReplayBuild> mem, List<ReplayBuild> cpu) {
        print.println("== Injected regressions, each build judged against all single builds ==");
        for (List<ReplayBuild> injected : List.of(mem, cpu)) {
            if (injected.isEmpty()) {
                continue;
            }
            Metric metric = injected == mem ? Metric.PEAK_MEMORY : Metric.CPU_TIME;
            List<Double> clean = single.stream().map(b -> b.figures().get(metric)).toList();
            double cleanMedian = Samples.median(clean);
            int caught = 0;
            List<String> effects = new ArrayList<>();
            for (ReplayBuild build : injected) {
                double now = build.figures().get(metric);
                boolean hit = ReplayJudge.flags(clean, now, metric);
                caught += hit ? 1 : 0;
                effects.add(String.format(Locale.ROOT, "%+.1f%%%s", 100 * (now / cleanMedian - 1), hit ? "" : "(missed)"));
            }
            print.printf(Locale.ROOT, "%s: %s caught in the first build %d of %d; effect of each: %s%n",
                    injected.get(0).label().replaceAll("-\\d+$", ""), metric.key(), caught, injected.size(), effects);
            // within 3 builds: a history of the clean builds, then three injected builds in a row, each judged
            // against the history with the ones before it added (as CI's history grows on main)
            int within = 0;
            List<String> when = new ArrayList<>();
            for (int start = 0; start + 3 <= injected.size(); start++) {
                List<Double> history = new ArrayList<>(clean);
                int at = 0;
                for (int k = 0; k < 3 && at == 0; k++) {
                    double now = injected.get(start + k).figures().get(metric);
                    boolean hit = ReplayJudge.flags(history, now, metric);
                    if (hit) {
                        at = k + 1;
                    }
                    history.add(now);
                }
                within += at > 0 ? 1 : 0;
                when.add(at > 0 ? "build " + at : "missed");
            }
            print.printf(Locale.ROOT, "  caught within 3 builds in %d of %d sequences of 3 injected builds: %s%n",
                    within, Math.max(0, injected.size() - 2), when);
        }
        List<Double> clean = single.stream().map(b -> b.figures().get(Metric.PEAK_MEMORY)).toList();
        if (clean.size() >= 12 && mem.size() >= 4) {
            stepHits("peakMemory +10 %", clean, mem.stream().map(b -> b.figures().get(Metric.PEAK_MEMORY)).toList(),
                    Metric.PEAK_MEMORY);
        }
        List<Double> cleanCpu = single.stream().map(b -> b.figures().get(Metric.CPU_TIME)).toList();
        if (cleanCpu.size() >= 12 && cpu.size() >= 4) {
            stepHits("cpuTime +25 %", cleanCpu, cpu.stream().map(b -> b.figures().get(Metric.CPU_TIME)).toList(),
                    Metric.CPU_TIME);
        }
        print.println();
    }

    /** 10 histories of up to 20 builds: clean builds, then the injected ones from a known build on. */
    private void stepHits(String what, List<Double> clean, List<Double> stepped, Metric metric) {
        int hits = 0;
        List<String> named = new ArrayList<>();
        Random random = new Random(28);
        int length = Math.min(20, clean.size() + 2);
        for (int trial = 0; trial < 10; trial++) {
            int at = 4 + random.nextInt(Math.max(1, Math.min(stepped.size(), length - 6) - 1));
            at = Math.min(at, length - 2);
            List<Double> cleanShuffled = new ArrayList<>(clean);
            Collections.shuffle(cleanShuffled, random);
            List<Double> steppedShuffled = new ArrayList<>(stepped);
            Collections.shuffle(steppedShuffled, random);
            List<Double> series = new ArrayList<>(cleanShuffled.subList(0, at));
            series.addAll(steppedShuffled.subList(0, Math.min(steppedShuffled.size(), length - at)));
            List<ChangePoints.ChangePoint> points = new ChangePoints(0.05, ReplayJudge.tolerance(metric).value(),
                    metric.noiseFloor()).find(series);
            boolean hit = !points.isEmpty() && points.get(points.size() - 1).index() == at;
            hits += hit ? 1 : 0;
            named.add("at " + at + (hit ? "" : " named " + points.stream().map(p -> Integer.toString(p.index()))
                    .toList()) + " of " + series.size());
        }
        print.printf(Locale.ROOT, "change points, %s spliced in at a known build, 10 histories: the right build "
                + "named in %d of 10 (%s)%n", what, hits, named);
    }
}
