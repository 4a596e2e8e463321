package io.vitals.internal.regression;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.stats.Samples;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One build of the testbed harness, as {@link HistoryReplay} reads it back: its label, testbed (A or B), load average
 * and figures, each the median of the build's repetitions, as the history takes it.
 */
record ReplayBuild(String label, String testbed, String load, Map<Metric, Double> figures) {

    /** The figures replayed, with their fields in the per-test JSON's {@code usage}. */
    static final Map<Metric, String> FIGURES = fields();

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The finished builds in {@code dir} whose names start with {@code prefix}, in the order they ran; a build
     * without figures is named on {@code print} and left out.
     */
    static List<ReplayBuild> read(Path dir, String prefix, PrintStream print) throws IOException {
        List<ReplayBuild> builds = new ArrayList<>();
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
            Map<Metric, Double> figures = figures(build.resolve("vitals"));
            String[] testbedAndLoad = Files.readString(build.resolve("testbed-and-load")).strip().split(" ");
            if (figures.isEmpty()) {
                print.println("  " + build.getFileName() + ": no figures (exit "
                        + Files.readString(build.resolve("exit-code")).strip() + ")");
                continue;
            }
            builds.add(new ReplayBuild(build.getFileName().toString(), testbedAndLoad[0], testbedAndLoad[1], figures));
        }
        return builds;
    }

    /** The median of each figure over the build's repetitions ({@code oneEpoch*.json}). */
    private static Map<Metric, Double> figures(Path reports) throws IOException {
        Map<Metric, List<Double>> repetitions = new LinkedHashMap<>();
        if (Files.isDirectory(reports)) {
            try (Stream<Path> files = Files.walk(reports)) {
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
        return figures;
    }

    /** In the order the replay prints them. */
    private static Map<Metric, String> fields() {
        Map<Metric, String> fields = new LinkedHashMap<>();
        fields.put(Metric.PEAK_MEMORY, "peakMemoryBytes");
        fields.put(Metric.CPU_TIME, "cpuSeconds");
        fields.put(Metric.AVERAGE_CPU, "averageCpuPercent");
        fields.put(Metric.PEAK_PIDS, "peakPids");
        return Collections.unmodifiableMap(fields);
    }

    private static int number(Path build) {
        String name = build.getFileName().toString();
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }
}
