package io.vitals.internal.regression;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.HistoryComparator;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.stats.ChangePoints;
import io.vitals.internal.regression.stats.Samples;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Metric, String> FIGURES = new LinkedHashMap<>();
    private static final Percentage PEAK_TOLERANCE = Percentage.of(5); // the harness's vitals.tolerance.peakMemory
    private static final Percentage TOLERANCE = Percentage.of(10); // the default vitals.tolerance
    private static final ChangeDetector DETECTOR = new ChangeDetector(0.05);

    static {
        FIGURES.put(Metric.PEAK_MEMORY, "peakMemoryBytes");
        FIGURES.put(Metric.CPU_TIME, "cpuSeconds");
        FIGURES.put(Metric.AVERAGE_CPU, "averageCpuPercent");
        FIGURES.put(Metric.PEAK_PIDS, "peakPids");
    }

    /** One build of the harness: its label, testbed (A or B), load average and figures (medians of repetitions). */
    private record Build(String label, String testbed, String load, Map<Metric, Double> figures) {
    }

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
        List<Build> cross = builds("cross", "cross-");
        List<Build> single = builds("single", "single-");
        List<Build> warmup = builds("warmup", "warmup-");
        if (!warmup.isEmpty()) {
            warmup(warmup, Stream.concat(cross.stream(), single.stream()).toList());
        }
        if (!cross.isEmpty()) {
            cross(cross);
        }
        if (!single.isEmpty()) {
            single(single);
            List<Build> mem = builds("inject", "mem10-");
            List<Build> cpu = builds("inject", "cpu25-");
            if (!mem.isEmpty() || !cpu.isEmpty()) {
                inject(single, mem, cpu);
            }
            holdOut(single, mem, cpu);
        }
    }

    private List<Build> builds(String phase, String prefix) throws IOException {
        Path dir = out.resolve(phase);
        List<Build> builds = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return builds;
        }
        List<Path> sorted;
        try (Stream<Path> list = Files.list(dir)) {
            sorted = list.filter(b -> b.getFileName().toString().startsWith(prefix))
                    .filter(b -> Files.exists(b.resolve("exit-code")))
                    .sorted((a, b) -> Integer.compare(number(a), number(b))).toList();
        }
        for (Path build : sorted) {
            Map<Metric, List<Double>> repetitions = new LinkedHashMap<>();
            if (Files.isDirectory(build.resolve("vitals"))) {
                try (Stream<Path> files = Files.walk(build.resolve("vitals"))) {
                    for (Path json : (Iterable<Path>) files.filter(f -> f.getFileName().toString()
                            .startsWith("oneEpoch") && f.toString().endsWith(".json"))::iterator) {
                        JsonNode usage = JSON.readTree(json.toFile()).path("containers").path(0).path("usage");
                        FIGURES.forEach((metric, field) -> {
                            if (usage.path(field).isNumber()) {
                                repetitions.computeIfAbsent(metric, m -> new ArrayList<>()).add(usage.get(field)
                                        .asDouble());
                            }
                        });
                    }
                }
            }
            Map<Metric, Double> figures = new LinkedHashMap<>();
            repetitions.forEach((metric, values) -> figures.put(metric, Samples.median(values)));
            String[] testbedAndLoad = Files.readString(build.resolve("testbed-and-load")).strip().split(" ");
            if (figures.isEmpty()) {
                print.println("  " + build.getFileName() + ": no figures (exit "
                        + Files.readString(build.resolve("exit-code")).strip() + ")");
                continue;
            }
            builds.add(new Build(build.getFileName().toString(), testbedAndLoad[0], testbedAndLoad[1], figures));
        }
        return builds;
    }

    private static int number(Path build) {
        String name = build.getFileName().toString();
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }

    private static Percentage tolerance(Metric metric) {
        return metric == Metric.PEAK_MEMORY ? PEAK_TOLERANCE : TOLERANCE;
    }

    /** The regressions of each build judged against the builds before it that {@code sameTestbed} keeps. */
    private static Map<String, List<String>> judged(List<Build> builds, boolean sameTestbed) {
        Map<String, List<String>> flagged = new LinkedHashMap<>();
        for (int i = 0; i < builds.size(); i++) {
            Build now = builds.get(i);
            List<String> found = new ArrayList<>();
            for (Metric metric : FIGURES.keySet()) {
                List<Double> before = new ArrayList<>();
                for (Build earlier : builds.subList(0, i)) {
                    if ((!sameTestbed || earlier.testbed().equals(now.testbed()))
                            && earlier.figures().containsKey(metric)) {
                        before.add(earlier.figures().get(metric));
                    }
                }
                if (!now.figures().containsKey(metric) || before.size() < HistoryComparator.MIN_BUILDS) {
                    continue;
                }
                HistoryComparator.judge(DETECTOR, before, HistoryComparator.steps(before, metric, tolerance(metric),
                        0.05), now.figures().get(metric), metric, tolerance(metric))
                        .filter(ChangeDetector.Outcome::changed)
                        .filter(o -> metric.direction().isWorse(o.evidence().effectPercent()))
                        .ifPresent(o -> found.add(metric.key() + " " + o.evidence().describe()));
            }
            flagged.put(now.label(), found);
        }
        return flagged;
    }

    private void cross(List<Build> builds) {
        print.println("== Two testbeds, one history (cross): " + builds.size() + " builds ==");
        spread(builds);
        Map<String, List<String>> same = judged(builds, true);
        long judgedBuilds = builds.stream().filter(b -> builds.stream().filter(e -> e.testbed().equals(b.testbed()))
                .toList().indexOf(b) >= HistoryComparator.MIN_BUILDS).count();
        report("judged against their own testbed (what Vitals does)", same, judgedBuilds);
        report("judged across testbeds (the same rule, testbeds ignored)", judged(builds, false),
                builds.size() - HistoryComparator.MIN_BUILDS);
        // a build that moved to the other runner class: each build judged against every build of the other testbed
        for (String testbed : builds.stream().map(Build::testbed).distinct().sorted().toList()) {
            List<Build> others = builds.stream().filter(b -> !b.testbed().equals(testbed)).toList();
            int flagged = 0;
            List<String> what = new ArrayList<>();
            List<Build> own = builds.stream().filter(b -> b.testbed().equals(testbed)).toList();
            for (Build now : own) {
                List<String> found = new ArrayList<>();
                for (Metric metric : FIGURES.keySet()) {
                    List<Double> before = others.stream().map(b -> b.figures().get(metric)).toList();
                    HistoryComparator.judge(DETECTOR, before, HistoryComparator.steps(before, metric,
                            tolerance(metric), 0.05), now.figures().get(metric), metric, tolerance(metric))
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
    private void warmup(List<Build> warmup, List<Build> later) {
        print.println("== Warm-up builds, in no history: the first build after the image reached each engine ==");
        for (Build build : warmup) {
            StringBuilder line = new StringBuilder("  " + build.label() + " on testbed " + build.testbed() + ":");
            for (Metric metric : FIGURES.keySet()) {
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

    private void spread(List<Build> builds) {
        for (Metric metric : FIGURES.keySet()) {
            StringBuilder line = new StringBuilder("  " + metric.key() + ":");
            for (String testbed : builds.stream().map(Build::testbed).distinct().sorted().toList()) {
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

    private void single(List<Build> builds) {
        int half = builds.size() / 2;
        print.println("== One testbed (single): " + half + " quiet builds, then " + (builds.size() - half)
                + " next to a busy core; loads " + builds.stream().map(Build::load).toList() + " ==");
        spread(builds);
        Map<String, List<String>> flagged = judged(builds, true);
        report("judged against the builds before them", flagged, builds.size() - HistoryComparator.MIN_BUILDS);
        print.println();
    }

    private void inject(List<Build> single, List<Build> mem, List<Build> cpu) {
        print.println("== Injected regressions, each build judged against all single builds ==");
        for (List<Build> injected : List.of(mem, cpu)) {
            if (injected.isEmpty()) {
                continue;
            }
            Metric metric = injected == mem ? Metric.PEAK_MEMORY : Metric.CPU_TIME;
            List<Double> clean = single.stream().map(b -> b.figures().get(metric)).toList();
            double cleanMedian = Samples.median(clean);
            int caught = 0;
            List<String> effects = new ArrayList<>();
            for (Build build : injected) {
                double now = build.figures().get(metric);
                boolean hit = HistoryComparator.judge(DETECTOR, clean, HistoryComparator.steps(clean, metric,
                        tolerance(metric), 0.05), now, metric, tolerance(metric))
                        .filter(ChangeDetector.Outcome::changed).isPresent();
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
                    boolean hit = HistoryComparator.judge(DETECTOR, history, HistoryComparator.steps(history, metric,
                            tolerance(metric), 0.05), now, metric, tolerance(metric))
                            .filter(ChangeDetector.Outcome::changed).isPresent();
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
            List<ChangePoints.ChangePoint> points = new ChangePoints(0.05, tolerance(metric).value(),
                    metric.noiseFloor()).find(series);
            boolean hit = !points.isEmpty() && points.get(points.size() - 1).index() == at;
            hits += hit ? 1 : 0;
            named.add("at " + at + (hit ? "" : " named " + points.stream().map(p -> Integer.toString(p.index()))
                    .toList()) + " of " + series.size());
        }
        print.printf(Locale.ROOT, "change points, %s spliced in at a known build, 10 histories: the right build "
                + "named in %d of 10 (%s)%n", what, hits, named);
    }

    private void holdOut(List<Build> single, List<Build> mem, List<Build> cpu) {
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
                                io.vitals.internal.regression.stats.PredictionBound.of(first)
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
        for (List<Build> injected : List.of(mem, cpu)) {
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
