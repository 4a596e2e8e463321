package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.Measured;
import io.vitals.testing.KernelCgroup;
import io.vitals.testing.StressContainer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Absent is a value (issue 20): 64 MiB written and fsync'd, five times, in five builds, with the history, baseline
 * updates and suggested budgets on. On a cgroup v1 host, which does not attribute buffered writeback to the writer's cgroup
 * (this project's host counts 0 B), block write is absent, never 0, in every format: the console table, the
 * per-test JSON, vitals.json, summary.md, index.html, vitals.prom, the baseline, the history and the suggested
 * budgets. On a cgroup v2 host (CI's guests) the same figure is present in each of them and at least 64 MiB.
 * Nothing is skipped: the assertions branch on {@link KernelCgroup#hostIsV2()}.
 */
@DisplayName("A figure the host cannot measure is absent in every format, never 0")
class AbsentFigureIT {

    private static final long MIB = 1024 * 1024;
    private static final int RUNS = 5;
    private static final int BUILDS = 5;
    /** One testbed for the five builds, named, whatever the host's facts say between them. */
    private static final String TESTBED = "absent-figure-it";
    private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?) ?(B|KiB|MiB|GiB)");

    private final ObjectMapper mapper = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @DisplayName("64 MiB fsync'd: absent on cgroup v1, at least 64 MiB on cgroup v2, in all nine formats")
    void blockWriteInEveryFormat() throws Exception {
        boolean v2 = KernelCgroup.hostIsV2();
        Path reports = dir.resolve("reports");
        Path history = dir.resolve("history.jsonl");
        Path baseline = dir.resolve("baseline.json");
        // budgets are suggested from 5 builds, never from the repetitions of one: 4 earlier builds first, all on one
        // container started here (a start costs 10-80 s in the emulated cgroup v2 guests this test also runs in)
        Writes64MiB.stress.start();
        try {
            run(reports, history, baseline, v2);
        } finally {
            Writes64MiB.stress.stop();
        }
    }

    private void run(Path reports, Path history, Path baseline, boolean v2) throws Exception {
        for (int build = 1; build < BUILDS; build++) {
            VitalsTestKit.assertAllSucceeded(VitalsTestKit.run(dir.resolve("earlier-" + build), Writes64MiB.class,
                    "vitals.console", "off", MeasureResources.HISTORY_KEY, history.toString(),
                    MeasureResources.HISTORY_UPDATE_KEY, "true", MeasureResources.RUN_ID_KEY, "earlier-" + build,
                    MeasureResources.TESTBED_KEY, TESTBED), RUNS);
        }
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = System.out;
        EngineExecutionResults results;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            results = VitalsTestKit.run(reports, Writes64MiB.class, "vitals.console", "full",
                    MeasureResources.RUN_ID_KEY, "last", MeasureResources.TESTBED_KEY, TESTBED,
                    MeasureResources.HISTORY_KEY, history.toString(), MeasureResources.HISTORY_UPDATE_KEY, "true",
                    MeasureResources.BASELINE_KEY, baseline.toString(), MeasureResources.BASELINE_UPDATE_KEY, "true",
                    MeasureResources.PROMETHEUS_SERIES_KEY, "test"); // every repetition's series
        } finally {
            System.setOut(out);
        }
        VitalsTestKit.assertAllSucceeded(results, RUNS);
        String probe = VitalsTestKit.entry(results, "repetition 1", "vitals.stress.probe").orElseThrow();
        assertThat(probe).as("the host cgroup probe of this host's version").isEqualTo(v2 ? "host cgroup v2 files"
                : "host cgroup v1 files");

        consoleTable(console.toString(StandardCharsets.UTF_8), v2);
        testJson(reports, v2);
        runIndex(reports, v2);
        summary(Files.readString(reports.resolve("summary.md")), v2);
        html(Files.readString(reports.resolve("index.html")), v2);
        prometheus(Files.readString(reports.resolve("vitals.prom")), v2);
        baseline(mapper.readTree(baseline.toFile()), v2);
        history(Files.readAllLines(history), v2);
        history(Files.readAllLines(reports.resolve("vitals-history.jsonl")), v2);
        suggestions(mapper.readTree(reports.resolve("suggested-budgets.json").toFile()), v2);
        assertThat(Files.readString(reports.resolve("suggested-budgets.md")).contains("blockWrite = ")).isEqualTo(v2);
    }

    // "5MiB", "64.02MiB", "64.0 MiB" in bytes
    private static long bytes(String text) {
        Matcher m = SIZE.matcher(text);
        assertThat(m.find()).as("a size in '%s'", text).isTrue();
        double value = Double.parseDouble(m.group(1));
        return Math.round(value * switch (m.group(2)) {
            case "KiB" -> 1024;
            case "MiB" -> MIB;
            case "GiB" -> 1024 * MIB;
            default -> 1;
        });
    }

    private static void consoleTable(String printed, boolean v2) {
        List<String> lines = printed.lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("TEST ")).findFirst().orElseThrow(
                () -> new AssertionError("no console table in:\n" + printed));
        int from = header.indexOf("BLOCK I/O");
        int to = header.indexOf("PIDS");
        // the table's rows, which start with the test's name: the verdict's notes under the table name it indented,
        // and the log lines that also name a repetition are shorter than its BLOCK I/O column
        List<String> cells = lines.stream().filter(l -> l.startsWith("writes64MiB repetition ") && l.length() > to)
                .map(l -> l.substring(from, to).strip()).toList();
        assertThat(cells).as("BLOCK I/O of each repetition in:%n%s", printed).hasSize(RUNS);
        for (String cell : cells) {
            String written = cell.substring(cell.indexOf(" / ") + 3);
            if (v2) {
                assertThat(bytes(written)).as(cell).isGreaterThanOrEqualTo(64 * MIB);
            } else {
                assertThat(written).as(cell).isEqualTo("--");
            }
        }
    }

    private void testJson(Path reports, boolean v2) throws Exception {
        List<JsonNode> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(reports)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                JsonNode json = mapper.readTree(file.toFile());
                if ("vitals-test/1".equals(json.path("schema").asText())) {
                    tests.add(json);
                }
            }
        }
        assertThat(tests).hasSize(RUNS);
        for (JsonNode test : tests) {
            JsonNode usage = test.at("/containers/0/usage");
            assertThat(test.at("/containers/0/exactness/blockWrite/cell").asText())
                    .isEqualTo(v2 ? "exact" : "unavailable");
            blockWrite(usage, "blockWriteBytes", v2);
            // the raw counters behind the figure: numbers on v2, null on v1, never a stored 0
            for (String counter : List.of("/containers/0/before/blockWriteBytes", "/containers/0/after/blockWriteBytes",
                    "/containers/0/timeline/blockWriteBytes")) {
                assertThat(test.at(counter).isNull()).as(counter).isEqualTo(!v2);
            }
        }
    }

    private static void blockWrite(JsonNode figures, String field, boolean v2) {
        if (v2) {
            assertThat(figures.get(field).isNumber()).as(figures.toString()).isTrue();
            assertThat(figures.get(field).asLong()).isGreaterThanOrEqualTo(64 * MIB);
            assertThat(figures.has(field + "Unavailable")).isFalse();
        } else {
            assertThat(figures.get(field).isNull()).as("%s: %s", field, figures.get(field)).isTrue();
            assertThat(figures.get(field + "Unavailable").asText()).contains("cgroup v1");
        }
    }

    private void runIndex(Path reports, boolean v2) throws Exception {
        JsonNode index = mapper.readTree(reports.resolve("vitals.json").toFile());
        assertThat(index.get("tests")).hasSize(RUNS);
        for (JsonNode test : index.get("tests")) {
            blockWrite(test.at("/containers/0"), "blockWriteBytes", v2);
        }
    }

    private static void summary(String md, boolean v2) {
        List<String> lines = md.lines().toList();
        List<String> header = cells(lines.stream().filter(l -> l.startsWith("| Test |")).findFirst().orElseThrow());
        int column = header.indexOf("Block write");
        assertThat(column).as("a Block write column in " + header).isPositive();
        List<String> cells = lines.stream().filter(l -> l.startsWith("| ") && l.contains("repetition "))
                .map(l -> cells(l).get(column)).toList();
        assertThat(cells).as("Block write of each repetition in:%n%s", md).hasSize(RUNS);
        for (String cell : cells) {
            if (v2) {
                assertThat(bytes(cell)).as(cell).isGreaterThanOrEqualTo(64 * MIB);
            } else {
                assertThat(cell).matches("not measured here\\[\\^nm\\d+]");
            }
        }
        if (!v2) {
            String note = cells.get(0).substring("not measured here".length());
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(note + ": blockWrite cannot be measured here: "
                    + "cgroup v1 does not attribute buffered writeback"));
        }
    }

    private static List<String> cells(String row) {
        return Stream.of(row.substring(1, row.length() - 1).split(" \\| ", -1)).map(String::strip).toList();
    }

    private static void html(String html, boolean v2) {
        Matcher absent = Pattern.compile("<span class=\"absent\" title=\"blockWrite cannot be measured here: cgroup v1"
                + "[^\"]*\">not measured here</span>").matcher(html);
        long count = absent.results().count();
        if (v2) {
            assertThat(count).isZero();
            // each row's block write cell: its sort key is the figure in bytes
            assertThat(html).doesNotContain("blockWrite cannot be measured here");
        } else {
            assertThat(count).as("a not-measured block write cell per row").isEqualTo(RUNS);
        }
    }

    private static void prometheus(String prom, boolean v2) {
        List<String> samples = prom.lines().filter(l -> l.startsWith("vitals_container_block_write_bytes_total{"))
                .toList();
        if (v2) {
            assertThat(samples).hasSize(RUNS).allSatisfy(l -> assertThat(Long.parseLong(l.substring(l.lastIndexOf(' ')
                    + 1))).isGreaterThanOrEqualTo(64 * MIB));
        } else {
            assertThat(samples).isEmpty();
            assertThat(prom).doesNotContain("vitals_container_block_write_bytes_total")
                    .contains("vitals_container_cpu_seconds_total{");
        }
    }

    private static void baseline(JsonNode file, boolean v2) {
        List<JsonNode> containers = new ArrayList<>();
        file.get("tests").forEach(test -> test.forEach(containers::add));
        assertThat(containers).isNotEmpty().allSatisfy(c -> assertThat(c.has("cpuTime")).isTrue());
        for (JsonNode container : containers) {
            if (v2) {
                assertThat(container.get("blockWrite").get(0).asLong()).isGreaterThanOrEqualTo(64 * MIB);
            } else {
                assertThat(container.has("blockWrite")).as(container.toString()).isFalse();
            }
        }
    }

    private void history(List<String> lines, boolean v2) throws Exception {
        List<JsonNode> writes = new ArrayList<>();
        for (String line : lines) {
            JsonNode entry = mapper.readTree(line);
            if (entry.path("metric").asText().equals("blockWrite")) {
                writes.add(entry);
            }
        }
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"metric\":\"cpuTime\""));
        if (v2) {
            assertThat(writes).singleElement().satisfies(e -> {
                JsonNode values = e.at("/runs/0/values");
                assertThat(values).hasSize(RUNS);
                values.forEach(v -> assertThat(v.asLong()).isGreaterThanOrEqualTo(64 * MIB));
            });
        } else {
            assertThat(writes).isEmpty();
        }
    }

    private static void suggestions(JsonNode file, boolean v2) {
        List<JsonNode> budgets = new ArrayList<>();
        file.get("tests").forEach(test -> test.get("budgets").forEach(budgets::add));
        // any figure: CPU time may have stepped between the five builds in an emulated guest, and a suggestion comes
        // from the builds since a step only
        assertThat(budgets).as("suggestions at all, so their lack of blockWrite says something").isNotEmpty();
        List<JsonNode> writes = budgets.stream().filter(b -> b.get("attribute").asText().equals("blockWrite"))
                .toList();
        if (v2) {
            assertThat(writes).singleElement().satisfies(b -> assertThat(b.get("baseValue").asDouble())
                    .isGreaterThanOrEqualTo(64 * MIB));
        } else {
            assertThat(writes).isEmpty();
        }
    }

    @MeasureResources
    static class Writes64MiB {

        @Measured
        static final StressContainer stress = new StressContainer();

        @RepeatedTest(RUNS)
        void writes64MiB() throws Exception {
            stress.sh("dd if=/dev/zero of=/tmp/f bs=1M count=64 conv=fsync 2>/dev/null && rm /tmp/f");
        }
    }
}
