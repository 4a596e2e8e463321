package io.vitals.internal.regression;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.history.History;
import io.vitals.internal.regression.history.HistoryFile;
import io.vitals.internal.regression.history.HistoryKey;
import io.vitals.internal.regression.history.HistoryRun;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.stats.ChangePoints;
import io.vitals.internal.regression.stats.Samples;
import io.vitals.internal.regression.suggest.BudgetSuggester;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.regression.testbed.Testbed;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Replays the testbed harness's builds ({@code examples/setup/testbeds.sh}) with the library's own classes and prints
 * the figures docs/benchmarks.md ("Verdicts over time") quotes: false regressions across testbeds (and what judging
 * across them would have flagged), false alarms on one testbed quiet and next to a busy core, detections of the
 * injected regressions, whether the change-point analysis names the build a step was spliced in at, and how suggested
 * budgets hold on the builds after the ones they came from. A command, not a test: it reads what a harness run left.
 *
 * <p>Usage: {@code java -cp <extension test classpath> io.vitals.internal.regression.HistoryReplay target/testbeds}
 */
public final class HistoryReplay {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Metric> FIGURES = List.of(Metric.PEAK_MEMORY, Metric.CPU_TIME, Metric.AVERAGE_CPU,
            Metric.PEAK_PIDS);
    private static final double PEAK_TOLERANCE = 5; // the harness's vitals.tolerance.peakMemory
    private static final double TOLERANCE = 10; // the default vitals.tolerance

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
        HistoryFile file = new HistoryFile(JSON);
        if (Files.exists(out.resolve("cross.jsonl"))) {
            cross(file.read(out.resolve("cross.jsonl")).history());
        }
        if (Files.exists(out.resolve("single.jsonl"))) {
            History single = file.read(out.resolve("single.jsonl")).history();
            single(single);
            if (Files.isDirectory(out.resolve("inject"))) {
                inject(single);
            }
            holdOut(single);
        }
    }

    // ---- what the builds' own verdicts said ----------------------------------------------------------------------

    /** The regression findings each build's run index recorded, by build label, in build order. */
    private Map<String, List<String>> recordedRegressions(String phase, String prefix) throws IOException {
        Map<String, List<String>> byBuild = new TreeMap<>((a, b) -> Integer.compare(number(a), number(b)));
        Path dir = out.resolve(phase);
        if (!Files.isDirectory(dir)) {
            return byBuild;
        }
        try (Stream<Path> builds = Files.list(dir)) {
            for (Path build : (Iterable<Path>) builds.filter(b -> b.getFileName().toString().startsWith(prefix))::iterator) {
                List<String> found = new ArrayList<>();
                Path index = build.resolve("vitals/vitals.json");
                if (!Files.exists(build.resolve("exit-code"))) {
                    continue; // still running
                }
                if (!Files.exists(index)) {
                    found.add("NO REPORT (exit " + Files.readString(build.resolve("exit-code")).strip() + ")");
                } else {
                    for (JsonNode test : JSON.readTree(index.toFile()).path("tests")) {
                        for (JsonNode f : test.path("baseline").path("findings")) {
                            if ("REGRESSION".equals(f.path("kind").asText()) && f.path("phase").asText().isEmpty()) {
                                found.add(f.path("metric").asText() + String.format(Locale.ROOT, " %+.1f %%",
                                        f.path("changePercent").asDouble()));
                            }
                        }
                    }
                }
                byBuild.put(build.getFileName().toString(), found);
            }
        }
        return byBuild;
    }

    private static int number(String label) {
        return Integer.parseInt(label.substring(label.lastIndexOf('-') + 1));
    }

    // ---- cross ---------------------------------------------------------------------------------------------------

    private void cross(History history) throws IOException {
        print.println("== Two testbeds, one history (cross) ==");
        for (Testbed testbed : history.testbeds().values()) {
            print.println("testbed " + testbed.label() + ": " + testbed.fields());
        }
        Map<String, List<String>> recorded = recordedRegressions("cross", "cross-");
        long flagged = recorded.values().stream().filter(list -> !list.isEmpty()).count();
        print.printf(Locale.ROOT, "builds: %d; builds with a regression flagged by Vitals (same-testbed judging): %d%n",
                recorded.size(), flagged);
        recorded.forEach((build, found) -> {
            if (!found.isEmpty()) {
                print.println("  " + build + ": " + found);
            }
        });
        spreadByTestbed(history);
        // the counterfactual: every build judged against all earlier builds, testbeds ignored, by the same rule
        int wouldFlag = 0;
        List<String> detail = new ArrayList<>();
        for (Map.Entry<HistoryKey, List<HistoryRun>> entry : history.runs().entrySet()) {
            HistoryKey key = entry.getKey();
            Metric metric = Metric.byKey(key.metric()).orElse(null);
            if (key.isPhase() || !FIGURES.contains(metric)) {
                continue;
            }
            List<HistoryRun> runs = entry.getValue();
            for (int i = 1; i < runs.size(); i++) {
                List<Double> before = runs.subList(0, i).stream().map(HistoryRun::buildValue).toList();
                if (regression(metric, before, runs.get(i).buildValue())) {
                    wouldFlag++;
                    detail.add(runs.get(i).id() + " " + metric.key());
                }
            }
        }
        print.printf(Locale.ROOT, "judged across testbeds instead (the same rule, testbeds ignored): %d regressions "
                + "flagged%s%n%n", wouldFlag, detail.isEmpty() ? "" : " " + detail);
    }

    private void spreadByTestbed(History history) {
        for (Map.Entry<HistoryKey, List<HistoryRun>> entry : history.runs().entrySet()) {
            HistoryKey key = entry.getKey();
            Metric metric = Metric.byKey(key.metric()).orElse(null);
            if (key.isPhase() || !FIGURES.contains(metric)) {
                continue;
            }
            StringBuilder line = new StringBuilder("  " + key.metric() + ":");
            for (String testbed : history.testbeds().keySet()) {
                List<Double> values = history.runs(key, testbed).stream().map(HistoryRun::buildValue).toList();
                if (!values.isEmpty()) {
                    line.append(String.format(Locale.ROOT, " %s median %s CV %.1f %% (%d builds);", testbed,
                            metric.format(Samples.median(values)), cv(values), values.size()));
                }
            }
            print.println(line);
        }
    }

    private static boolean regression(Metric metric, List<Double> before, double now) {
        double tolerance = metric == Metric.PEAK_MEMORY ? PEAK_TOLERANCE : TOLERANCE;
        return new ChangeDetector(0.05).judgeBuild(before, List.of(), now, tolerance, metric.noiseFloor())
                .filter(ChangeDetector.Outcome::changed)
                .filter(o -> metric.direction().isWorse(o.evidence().effectPercent())).isPresent();
    }

    private static double cv(List<Double> values) {
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double sd = Math.sqrt(values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum()
                / Math.max(1, values.size() - 1));
        return mean == 0 ? 0 : 100 * sd / mean;
    }

    // ---- single --------------------------------------------------------------------------------------------------

    private void single(History history) throws IOException {
        print.println("== One testbed, quiet then next to a busy core (single) ==");
        Map<String, List<String>> recorded = recordedRegressions("single", "single-");
        int half = recorded.size() / 2;
        int i = 0;
        int quiet = 0;
        int busy = 0;
        for (Map.Entry<String, List<String>> build : recorded.entrySet()) {
            if (!build.getValue().isEmpty()) {
                if (i < half) {
                    quiet++;
                } else {
                    busy++;
                }
                print.println("  " + build.getKey() + ": " + build.getValue());
            }
            i++;
        }
        print.printf(Locale.ROOT, "builds: %d quiet, %d next to a busy core; builds with a false alarm: %d quiet, "
                + "%d busy%n", half, recorded.size() - half, quiet, busy);
        spreadByTestbed(history);
        print.println();
    }

    // ---- inject --------------------------------------------------------------------------------------------------

    private void inject(History single) throws IOException {
        print.println("== Injected regressions, each build judged against the single history (inject) ==");
        for (String kind : List.of("mem10-", "cpu25-")) {
            Map<String, List<String>> recorded = recordedRegressions("inject", kind);
            String metric = kind.startsWith("mem") ? "peakMemory" : "cpuTime";
            long caught = recorded.values().stream().filter(list -> list.stream().anyMatch(f -> f.startsWith(metric + " ")))
                    .count();
            print.printf(Locale.ROOT, "%s builds: %d; %s flagged in %d of them: %s%n", kind.substring(0, kind.length() - 1),
                    recorded.size(), metric, caught, recorded.values());
        }
        // the change points: 10 histories of 20 builds, the clean builds then the +10 % memory builds from build s on
        List<Double> clean = figure(single, "peakMemory");
        List<Double> stepped = injectedFigure("mem10-", "peakMemory");
        List<Double> cpuClean = figure(single, "cpuTime");
        List<Double> cpuStepped = injectedFigure("cpu25-", "cpuTime");
        if (clean.size() >= 12 && stepped.size() >= 4) {
            stepHits("peakMemory +10 %", clean, stepped, PEAK_TOLERANCE, Metric.PEAK_MEMORY.noiseFloor());
        }
        if (cpuClean.size() >= 12 && cpuStepped.size() >= 4) {
            stepHits("cpuTime +25 %", cpuClean, cpuStepped, TOLERANCE, Metric.CPU_TIME.noiseFloor());
        }
        print.println();
    }

    private void stepHits(String what, List<Double> clean, List<Double> stepped, double tolerance, double noiseFloor) {
        int hits = 0;
        List<String> named = new ArrayList<>();
        Random random = new Random(28);
        for (int trial = 0; trial < 10; trial++) {
            // a step at a build between the 4th and the third-last, from a random stretch of clean builds
            int length = Math.min(20, clean.size() + 2);
            int at = 3 + trial % Math.max(1, Math.min(stepped.size(), length - 5));
            List<Double> series = new ArrayList<>();
            List<Double> cleanShuffled = new ArrayList<>(clean);
            Collections.shuffle(cleanShuffled, random);
            List<Double> steppedShuffled = new ArrayList<>(stepped);
            Collections.shuffle(steppedShuffled, random);
            series.addAll(cleanShuffled.subList(0, at));
            series.addAll(steppedShuffled.subList(0, Math.min(steppedShuffled.size(), length - at)));
            List<ChangePoints.ChangePoint> points = new ChangePoints(0.05, tolerance, noiseFloor).find(series);
            boolean hit = points.size() == 1 && points.get(0).index() == at;
            hits += hit ? 1 : 0;
            named.add(at + (hit ? "" : "->" + points.stream().map(p -> Integer.toString(p.index())).toList()));
        }
        print.printf(Locale.ROOT, "change points, %s spliced in at a known build, 10 histories: the right build named "
                + "in %d of 10 (step at: %s)%n", what, hits, named);
    }

    private static List<Double> figure(History history, String metric) {
        return history.runs().entrySet().stream().filter(e -> e.getKey().metric().equals(metric)
                && !e.getKey().isPhase()).findFirst().map(e -> e.getValue().stream().map(HistoryRun::buildValue)
                        .toList()).orElse(List.of());
    }

    /** A figure of each injected build, from its per-test JSON (the builds were not added to any history). */
    private List<Double> injectedFigure(String prefix, String metric) throws IOException {
        List<Double> values = new ArrayList<>();
        Path dir = out.resolve("inject");
        try (Stream<Path> builds = Files.list(dir)) {
            List<Path> sorted = builds.filter(b -> b.getFileName().toString().startsWith(prefix))
                    .sorted((a, b) -> Integer.compare(number(a.getFileName().toString()),
                            number(b.getFileName().toString()))).toList();
            for (Path build : sorted) {
                List<Double> repetitions = new ArrayList<>();
                try (Stream<Path> files = Files.walk(build.resolve("vitals"))) {
                    for (Path json : (Iterable<Path>) files.filter(f -> f.getFileName().toString().startsWith("oneEpoch")
                            && f.toString().endsWith(".json"))::iterator) {
                        JsonNode usage = JSON.readTree(json.toFile()).path("containers").path(0).path("usage");
                        JsonNode value = usage.path(metric.equals("peakMemory") ? "peakMemoryBytes" : "cpuSeconds");
                        if (value.isNumber()) {
                            repetitions.add(value.asDouble());
                        }
                    }
                }
                if (!repetitions.isEmpty()) {
                    values.add(Samples.median(repetitions));
                }
            }
        }
        return values;
    }

    // ---- suggested budgets, held out -----------------------------------------------------------------------------

    private void holdOut(History single) throws IOException {
        print.println("== Suggested budgets, held out (single history) ==");
        BudgetSuggester suggester = new BudgetSuggester();
        for (Map.Entry<HistoryKey, List<HistoryRun>> entry : single.runs().entrySet()) {
            HistoryKey key = entry.getKey();
            Metric metric = Metric.byKey(key.metric()).orElse(null);
            if (key.isPhase() || !FIGURES.contains(metric) || metric == Metric.AVERAGE_CPU) {
                continue;
            }
            List<HistoryRun> runs = entry.getValue();
            for (String order : List.of("as run (quiet builds first, then busy)", "shuffled (200 orders)")) {
                int pairs = 0;
                int breaches = 0;
                List<Double> ratios = new ArrayList<>();
                Random random = new Random(32);
                int orders = order.startsWith("shuffled") ? 200 : 1;
                for (int o = 0; o < orders; o++) {
                    List<HistoryRun> sequence = new ArrayList<>(runs);
                    if (orders > 1) {
                        Collections.shuffle(sequence, random);
                    }
                    for (int k = BudgetSuggester.MIN_BUILDS; k < sequence.size(); k++) {
                        List<Double> first = sequence.subList(0, k).stream().map(HistoryRun::buildValue).toList();
                        BudgetSuggestion s = suggester.suggest(key, new BudgetSuggester.Builds("replay", first,
                                OptionalLong.empty())).orElse(null);
                        if (s == null) {
                            continue;
                        }
                        double oldRule = oldRule(metric, sequence.subList(0, k));
                        ratios.add(s.baseValue() / oldRule);
                        for (HistoryRun later : sequence.subList(k, sequence.size())) {
                            pairs++;
                            breaches += later.buildValue() > s.baseValue() ? 1 : 0;
                        }
                    }
                }
                print.printf(Locale.ROOT, "%s, %s: %d later builds judged, %d breached (%.2f %%, promised <= 1 %%); "
                        + "budget / (max of repetitions + 10 %%) median %.2f%n", key.metric(), order, pairs, breaches,
                        pairs == 0 ? 0 : 100.0 * breaches / pairs, ratios.isEmpty() ? Double.NaN : Samples.median(ratios));
            }
        }
        // the injected builds against the budget suggested from every single build
        for (String[] injected : List.of(new String[] {"mem10-", "peakMemory"}, new String[] {"cpu25-", "cpuTime"})) {
            if (!Files.isDirectory(out.resolve("inject"))) {
                break;
            }
            HistoryKey key = single.runs().keySet().stream().filter(k -> k.metric().equals(injected[1]) && !k.isPhase())
                    .findFirst().orElseThrow();
            List<Double> all = single.runs(key).stream().map(HistoryRun::buildValue).toList();
            BudgetSuggestion s = suggester.suggest(key, new BudgetSuggester.Builds("replay", all,
                    OptionalLong.empty())).orElseThrow();
            List<Double> values = injectedFigure(injected[0], injected[1]);
            long caught = values.stream().filter(v -> v > s.baseValue()).count();
            print.printf(Locale.ROOT, "%s builds against the suggested %s = \"%s\" (from all %d single builds): %d of "
                    + "%d breach it%n", injected[0].substring(0, injected[0].length() - 1), injected[1], s.value(),
                    all.size(), caught, values.size());
        }
    }

    /** What Vitals suggested before: the highest measurement (repetitions counted as runs) plus 10 %, rounded up. */
    private static double oldRule(Metric metric, List<HistoryRun> runs) {
        double max = runs.stream().flatMap(r -> r.values().stream()).mapToDouble(Double::doubleValue).max()
                .orElseThrow();
        return metric.unit().roundUp(max * 1.1).value();
    }
}
