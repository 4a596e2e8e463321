package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vitals.testing.DockerCli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test JVM killed (SIGKILL, so no shutdown hook runs) at moments spread over a whole run with the history and
 * baseline updates on: before the first test, inside a test, between tests, and while the run's files are written.
 * After every kill the history and the baseline are either the bytes they were before or a complete, readable newer
 * file (the kill came after the atomic replace), every report file that exists parses, and a temporary file the kill
 * left (between its write and its rename) is gone after the next run into the same directory.
 *
 * <p>{@code vitals.it.jvmKills} sets the number of kills (default 20, the count; each costs one JVM start).
 */
@DisplayName("The test JVM is killed mid-run")
class JvmKilledMidRunIT {

    private static final int KILLS = Integer.getInteger("vitals.it.jvmKills", 20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    private final List<String> outcomes = new ArrayList<>();

    @TestFactory
    @DisplayName("killed at moments spread over a run: stored files are the old bytes or a complete new file")
    Stream<DynamicTest> killedAtSpreadMoments() throws Exception {
        // one whole run first: it writes the history and baseline every kill then starts from, and its length
        // spreads the kills
        Path seed = work.resolve("seed");
        Files.createDirectories(seed);
        long started = System.nanoTime();
        Child complete = Child.start(seed.resolve("reports"), seed.resolve("history.jsonl"),
                seed.resolve("baseline.json"));
        complete.waitForEnd();
        Duration runLength = Duration.ofNanos(System.nanoTime() - started);
        assertThat(complete.lines).as("the uninterrupted run").contains("TESTS FAILED 0");
        byte[] history = Files.readAllBytes(seed.resolve("history.jsonl"));
        byte[] baseline = Files.readAllBytes(seed.resolve("baseline.json"));
        System.out.printf("[jvm-kill] an uninterrupted run takes %.2f s; %d kills spread over it%n",
                runLength.toNanos() / 1e9, KILLS);

        return IntStream.range(0, KILLS).mapToObj(i -> {
            // over 115 % of the uninterrupted run's length: a killed run may be slower than the first, and its
            // last moments (the history and baseline written) matter most
            Duration after = runLength.multipliedBy(115L * (2 * i + 1)).dividedBy(200L * KILLS);
            return DynamicTest.dynamicTest(String.format("killed %.2f s after start", after.toNanos() / 1e9),
                    () -> killedAfter(i, after, history, baseline));
        });
    }

    private void killedAfter(int index, Duration after, byte[] history, byte[] baseline) throws Exception {
        Path dir = work.resolve("kill-" + index);
        Path historyFile = dir.resolve("history.jsonl");
        Path baselineFile = dir.resolve("baseline.json");
        Files.createDirectories(dir);
        Files.write(historyFile, history);
        Files.write(baselineFile, baseline);

        Child child = Child.start(dir.resolve("reports"), historyFile, baselineFile);
        Thread.sleep(after.toMillis());
        boolean alive = child.process.isAlive();
        child.process.destroyForcibly();
        child.waitForEnd();
        int removed = child.removeContainers();

        String historyState = state(historyFile, history, true);
        String baselineState = state(baselineFile, baseline, false);
        List<Path> reportFiles = files(dir);
        for (Path file : reportFiles) {
            if (file.getFileName().toString().endsWith(".json")) {
                assertThat(JSON.readTree(file.toFile())).as("%s parses", file).isNotNull();
            }
        }
        // A kill between a temporary file's write and its rename leaves the temporary file (the atomic write's
        // promise is old or new content, never half); the next run into the same files must take it away.
        List<Path> left = temporaryFiles(reportFiles);
        String cleanup = "";
        if (!left.isEmpty()) {
            Child next = Child.start(dir.resolve("reports"), historyFile, baselineFile);
            next.waitForEnd();
            next.removeContainers();
            assertThat(next.lines).as("the run after the kill").contains("TESTS FAILED 0");
            assertThat(temporaryFiles(files(dir))).as("temporary files after the next run into %s", dir).isEmpty();
            cleanup = "; the next run removed " + left.size() + " temporary file(s) the kill left";
        }
        String outcome = String.format("kill %2d at %.2f s: %s; history %s, baseline %s, %d report files, %d"
                + " container(s) removed%s", index + 1, after.toNanos() / 1e9, alive ? "JVM killed"
                : "JVM had ended", historyState, baselineState, reportFiles.size(), removed, cleanup);
        System.out.println("[jvm-kill] " + outcome);
        outcomes.add(outcome);
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private static List<Path> temporaryFiles(List<Path> files) {
        return files.stream().filter(file -> file.getFileName().toString().endsWith(".tmp")).toList();
    }

    /**
     * "unchanged" when the file holds the bytes it held before the run, "complete" when it holds a readable newer file
     * (the run's atomic replace happened before the kill) that starts with the old content's runs; anything else
     * fails.
     */
    private static String state(Path file, byte[] before, boolean jsonLines) throws IOException {
        byte[] now = Files.readAllBytes(file);
        if (Arrays.equals(now, before)) {
            return "unchanged";
        }
        String text = new String(now, StandardCharsets.UTF_8);
        if (jsonLines) {
            // a line per test, container, phase and metric, each holding its runs: the run adds one to each line
            assertThat(historyRuns(text, file)).as("runs held by %s", file)
                    .isGreaterThan(historyRuns(new String(before, StandardCharsets.UTF_8), file));
        } else {
            assertThat(JSON.readTree(text)).as("%s parses", file).isNotNull();
        }
        assertThat(file.resolveSibling(file.getFileName() + ".previous")).as("the replaced file kept")
                .hasBinaryContent(before);
        return "complete";
    }

    /** The runs all lines of a history hold together; every line must parse. */
    private static int historyRuns(String text, Path file) throws IOException {
        int runs = 0;
        for (String line : text.lines().filter(l -> !l.isBlank()).toList()) {
            JsonNode node = JSON.readTree(line);
            assertThat(node).as("a line of %s", file).isNotNull();
            runs += node.path("runs").size();
        }
        return runs;
    }

    /** One child JVM running {@link JvmKillMain}, its output read on a thread of its own. */
    private static final class Child {
        final Process process;
        final String label;
        final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        final Thread reader;

        private Child(Process process, String label) {
            this.process = process;
            this.label = label;
            this.reader = new Thread(this::read, "jvm-kill-child-output");
            reader.start();
        }

        static Child start(Path reports, Path history, Path baseline) throws IOException {
            String label = UUID.randomUUID().toString();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    JvmKillMain.class.getName(), reports.toString(), history.toString(), baseline.toString(), label);
            builder.redirectErrorStream(true);
            builder.environment().put("TESTCONTAINERS_RYUK_DISABLED", "true");
            return new Child(builder.start(), label);
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output unreadable: " + e + ")");
            }
        }

        void waitForEnd() throws InterruptedException {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the child JVM did not end within 120 s; it said:\n"
                        + String.join("\n", lines));
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(reader.isAlive()).as("the child's output reader ended").isFalse();
        }

        /** A JVM killed with SIGKILL leaves its container (no shutdown hook; Ryuk, which would remove it, is off). */
        int removeContainers() throws IOException, InterruptedException {
            String left = DockerCli.run("ps", "-aq", "--filter", "label=" + JvmKillMain.LABEL + "=" + label).strip();
            if (left.isEmpty()) {
                return 0;
            }
            List<String> args = new ArrayList<>(List.of("rm", "-f"));
            args.addAll(List.of(left.split("\\s+")));
            DockerCli.run(args.toArray(String[]::new));
            return args.size() - 2;
        }
    }
}
