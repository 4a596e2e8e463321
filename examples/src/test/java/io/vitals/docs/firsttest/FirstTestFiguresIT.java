package io.vitals.docs.firsttest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.vitals.Limits;
import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;

/**
 * Keeps the figures of docs/first-test.md true: the page states each figure as a range measured over several runs,
 * and a checked range around it; this test runs the page's test ({@link StressServiceIT}, step 3) and step 4's
 * lowered budget again and fails when a fresh figure falls outside the checked range, when the page's measured range
 * does not lie within it, or when the breach message no longer reads as the page shows it.
 *
 * <p>The ranges are read from the page (the table after the {@code <!-- figures: ... -->} marker, the message
 * after {@code <!-- breach message: ... -->}), never repeated here, so the page and the test cannot drift apart.
 * A figure outside its range means the page no longer shows what a user sees: run the page again (it says how), and
 * update its table, its figures and this range together.
 *
 * <p>{@link Isolated}: the page's figures are those of a run with nothing beside it, and CPU % is CPU time over wall
 * time, so under JUnit's parallel execution a neighbour's training on the same cores lowers it (7.0 % against the
 * page's 20-110 % with the example suite's classes and methods concurrent on 2 cores, docs/benchmarks.md). JUnit
 * runs an isolated class with no other test at the same time; serially it changes nothing.
 */
@Isolated("its figures are those of a run with nothing beside it: CPU % falls when neighbours share the cores")
@DisplayName("docs/first-test.md: its figures are those of a fresh run")
class FirstTestFiguresIT {

    private static final Pattern RANGE = Pattern.compile("(\\d+(?:\\.\\d+)?)-(\\d+(?:\\.\\d+)?) ?(MiB|%)");
    private static final double MIB = 1024 * 1024;

    /** A closed range from the page, in MiB or percent. */
    record Range(double low, double high) {

        boolean contains(double value) {
            return value >= low && value <= high;
        }

        boolean contains(Range other) {
            return other.low >= low && other.high <= high;
        }

        @Override
        public String toString() {
            return low + "-" + high;
        }
    }

    /** One row of the page's figures table: what it measured and what a fresh run must fall in. */
    record Figure(String name, Range measured, Range checked) {
    }

    private final Path page = repositoryRoot().resolve("docs").resolve("first-test.md");

    @Test
    @DisplayName("the page's measured ranges lie within its checked ranges")
    void measuredWithinChecked() throws IOException {
        Map<String, Figure> figures = figures();
        assertThat(figures).containsOnlyKeys("PEAK MEM", "CPU %");
        assertThat(figures.values()).allSatisfy(f -> assertThat(f.checked().contains(f.measured()))
                .as("%s: measured %s within checked %s", f.name(), f.measured(), f.checked()).isTrue());
    }

    @Test
    @DisplayName("step 3: a fresh green run's peak memory and CPU % fall in the page's checked ranges")
    void greenRun() throws IOException {
        Map<String, Figure> figures = figures();
        Path reports = Path.of("target", "vitals-fixtures", "FirstTestFiguresIT-green");
        EngineExecutionResults results = run(StressServiceIT.class, reports);
        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

        JsonNode usage = new ObjectMapper().readTree(reports.resolve(StressServiceIT.class.getName())
                .resolve("holdsAHundredMebibytes.json").toFile()).path("containers").path(0).path("usage");
        double peakMib = usage.path("peakMemoryBytes").asDouble() / MIB;
        double cpuPercent = usage.path("averageCpuPercent").asDouble();
        System.out.printf("first-test.md, fresh green run: PEAK MEM %.1f MiB, CPU %% %.2f%%%n", peakMib, cpuPercent);

        assertThat(figures.get("PEAK MEM").checked().contains(peakMib))
                .as("PEAK MEM %.1f MiB within the page's %s MiB", peakMib, figures.get("PEAK MEM").checked()).isTrue();
        assertThat(figures.get("CPU %").checked().contains(cpuPercent))
                .as("CPU %% %.2f%% within the page's %s%%", cpuPercent, figures.get("CPU %").checked()).isTrue();
    }

    @Test
    @DisplayName("step 4: the breach message reads as the page's, its peak in the page's range, its excess over 64MiB")
    void redRun() throws IOException {
        Range peakRange = figures().get("PEAK MEM").checked();
        Pattern shape = messageShape();
        EngineExecutionResults results = run(LoweredBudget.class,
                Path.of("target", "vitals-fixtures", "FirstTestFiguresIT-red"));
        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
        Throwable failure = results.testEvents().failed().stream().findFirst()
                .flatMap(e -> e.getPayload(TestExecutionResult.class)).flatMap(TestExecutionResult::getThrowable)
                .orElseThrow();
        assertThat(failure.getClass().getName()).isEqualTo("io.vitals.ResourceBudgetExceededError");
        String line = failure.getMessage().lines().filter(l -> l.startsWith("  - peak memory")).findFirst()
                .orElseThrow(() -> new AssertionError("no peak memory line in: " + failure.getMessage()));
        System.out.println("first-test.md, fresh red run:" + System.lineSeparator() + line);

        Matcher m = shape.matcher(line);
        assertThat(m.lookingAt()).as("the message starts as the page's: %s%nbut reads: %s", shape, line).isTrue();
        double peak = Double.parseDouble(m.group(1));
        double excess = Double.parseDouble(m.group(2));
        double percent = Double.parseDouble(m.group(3));
        assertThat(peakRange.contains(peak)).as("peak memory %.1f MiB within the page's %s MiB", peak, peakRange)
                .isTrue();
        assertThat(excess).as("the excess is the peak minus 64 MiB").isCloseTo(peak - 64, within(0.15));
        assertThat(percent).as("the excess in percent of 64 MiB").isCloseTo(excess / 64 * 100, within(0.25));
    }

    private static org.assertj.core.data.Offset<Double> within(double offset) {
        return org.assertj.core.data.Offset.offset(offset);
    }

    private static EngineExecutionResults run(Class<?> fixture, Path reports) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameters(Map.of(MeasureResources.REPORT_DIR_KEY, reports.toString(),
                        MeasureResources.CONSOLE_KEY, "off"))
                .selectors(selectClass(fixture)).execute();
    }

    // --- the page ---

    /** The rows of the table after the figures marker, by the text of their first cell. */
    private Map<String, Figure> figures() throws IOException {
        List<String> lines = Files.readAllLines(page);
        int marker = indexOf(lines, "<!-- figures:");
        Map<String, Figure> figures = new HashMap<>();
        for (int i = marker + 3; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|");
            String name = cells[1].strip().replaceFirst(" \\(.*$", "");
            figures.put(name, new Figure(name, range(cells[2], lines.get(i)), range(cells[3], lines.get(i))));
        }
        return figures;
    }

    private static Range range(String cell, String line) {
        Matcher m = RANGE.matcher(cell);
        assertThat(m.find()).as("a range such as 100-130 MiB in: %s", line).isTrue();
        return new Range(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)));
    }

    /**
     * The page's peak memory line up to "reached at", its decimal figures turned into groups: the words, the budget
     * as written and the order of the figures must stay as the page shows them.
     */
    private Pattern messageShape() throws IOException {
        List<String> lines = Files.readAllLines(page);
        int marker = indexOf(lines, "<!-- breach message:");
        Optional<String> line = lines.subList(marker, lines.size()).stream()
                .filter(l -> l.startsWith("  - peak memory")).findFirst();
        assertThat(line).as("a peak memory line after the breach message marker").isPresent();
        String head = line.get().substring(0, line.get().indexOf(", reached at") + ", reached at".length());
        StringBuilder regex = new StringBuilder();
        Matcher decimal = Pattern.compile("\\d+\\.\\d+").matcher(head);
        int end = 0;
        while (decimal.find()) {
            regex.append(Pattern.quote(head.substring(end, decimal.start()))).append("(\\d+\\.\\d+)");
            end = decimal.end();
        }
        regex.append(Pattern.quote(head.substring(end)));
        return Pattern.compile(regex.toString());
    }

    private int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' in " + page);
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs").resolve("first-test.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/first-test.md above " + Path.of("").toAbsolutePath());
    }

    /** Step 4 of the page: {@link StressServiceIT} with its budget lowered to 64MiB, the rest unchanged. */
    @MeasureResources
    static class LoweredBudget {

        @Container
        static GenericContainer<?> service = Limits.none().memory("512MiB").cpus(1.0)
                .applyTo(new GenericContainer<>("vitals/stress:latest").withCommand("sleep", "infinity"));

        @Test
        @ResourceBudget(peakMemory = "64MiB")
        void holdsAHundredMebibytes() throws Exception {
            service.execInContainer("stress-ng", "--vm", "1", "--vm-bytes", "100M", "--vm-keep", "--timeout", "3s");
        }
    }
}
