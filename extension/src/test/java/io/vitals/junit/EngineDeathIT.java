package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vitals.ContainerFaultError;
import io.vitals.testing.DockerCli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Docker engine dies while a test runs: its daemon is killed (SIGKILL) 2 s into a test that drives its
 * container through the engine. The test must fail with Vitals' {@link ContainerFaultError} naming the engine, when
 * it was last seen and what was measured; the JSON report must carry the ENGINE_GONE fault with its partial window;
 * the console table must not say ok; and once the engine is back (restarted here 3 s after the kill, before the
 * fixture class ends) no container of the test may remain on it.
 *
 * <p>Only the SECOND engine ({@code tcp://127.0.0.1:23750}, {@code examples/setup/second-engine.sh}) is ever
 * killed, never the one other jobs share; the fixture runs in a child JVM with {@code DOCKER_HOST} naming it, since
 * Testcontainers resolves its engine once per JVM. Run this class alone: EngineApiProbeIT uses that engine too.
 * Needs root (to kill and restart dockerd), like the setup script.
 */
@DisplayName("The Docker engine dies during a test")
class EngineDeathIT {

    private static final Path PIDFILE = Path.of("/var/run/vitals-docker2.pid");
    private static final Duration KILL_AFTER = Duration.ofSeconds(2);
    private static final Duration RESTART_AFTER_KILL = Duration.ofSeconds(3);
    /** How many times the engine is killed: {@code vitals.it.engineKills}, 3 by default (each costs some 25 s). */
    private static final int KILLS = Integer.getInteger("vitals.it.engineKills", 3);

    @TempDir
    Path reports;

    @BeforeAll
    static void secondEngineAnswers() throws Exception {
        restartEngine(); // idempotent: starts nothing when it answers
        try {
            DockerCli.run("-H", EngineDeathMain.SECOND_ENGINE, "version", "--format", "{{.Server.Version}}");
        } catch (IOException e) {
            fail("No Docker engine answers on " + EngineDeathMain.SECOND_ENGINE + ": run examples/setup/"
                    + "second-engine.sh (as root) first. Cause: " + e.getMessage(), e);
        }
    }

    /** Whatever happened, the second engine answers again for whoever uses it next. */
    @AfterAll
    static void engineRunsAgain() throws Exception {
        restartEngine();
    }

    @TestFactory
    @DisplayName("killed 2 s into the test: a Vitals fault naming the engine, an ENGINE_GONE report, no container "
            + "left once it is back")
    Stream<DynamicTest> engineKilledMidTest() {
        return IntStream.rangeClosed(1, KILLS).mapToObj(kill -> DynamicTest.dynamicTest("kill " + kill + " of "
                + KILLS, () -> engineKilledMidTest(Files.createDirectories(reports.resolve("kill-" + kill)))));
    }

    private void engineKilledMidTest(Path reports) throws Exception {
        String label = UUID.randomUUID().toString();
        List<String> lines = new ArrayList<>();
        List<String> errors;
        long killedAt;
        Path stderr = Files.createTempFile(reports, "child", ".err");
        Process child = startChild(reports, label, stderr);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = readUntil(out, lines, "TEST STARTED ");
            assertThat(line).as("the fixture's test started; child output:%n%s", String.join("\n", lines))
                    .isNotNull();
            Thread.sleep(KILL_AFTER.toMillis());
            long pid = Long.parseLong(Files.readString(PIDFILE).strip());
            ProcessHandle dockerd = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no process " + pid
                    + " (from " + PIDFILE + ")"));
            assertThat(dockerd.info().command().orElse("")).as("process %d is a dockerd", pid).endsWith("dockerd");
            killedAt = System.nanoTime();
            assertThat(dockerd.destroyForcibly()).as("SIGKILL sent to dockerd %d", pid).isTrue();
            dockerd.onExit().get(10, TimeUnit.SECONDS);
            Thread.sleep(RESTART_AFTER_KILL.toMillis());
            long restarting = System.nanoTime();
            restartEngine();
            System.out.printf("engine restarted in %.1f s%n", (System.nanoTime() - restarting) / 1e9);
            readUntil(out, lines, null);
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
        } finally {
            child.destroyForcibly();
            errors = Files.readAllLines(stderr);
        }
        System.out.printf("engine killed %.1f s after the test started; child said:%n%s%n",
                KILL_AFTER.toMillis() / 1000.0, String.join("\n", lines));
        // Vitals' fault, naming the engine; the test's own failure (the refused connection) is its cause
        String failed = lines.stream().filter(l -> l.startsWith("FAILED ")).findFirst()
                .orElseThrow(() -> new AssertionError("no failure in:\n" + String.join("\n", lines)));
        assertThat(failed).matches("FAILED " + ContainerFaultError.class.getName().replace(".", "\\.")
                + ": the Docker engine tcp://127\\.0\\.0\\.1:23750 stopped answering during the test: last seen at "
                + "[0-9.]+ (ms|s), no answer at [0-9.]+ (ms|s) \\(.+\\)\\. Container 'stress' was measured for "
                + "[0-9.]+ (ms|s) \\([0-9]+ samples\\): a partial window.*");
        // killed between two calls, the next is refused; killed during one, it is never answered, or its connection
        // is reset (seen in a clean-clone CI run on 2026-12-03)
        assertThat(lines).anyMatch(l -> l.startsWith("CAUSE ") && (l.contains("Connection refused")
                || l.contains("failed to respond") || l.contains("Connection reset")));
        assertThat(lines).contains("TESTS FAILED 1");
        // the console table names the fault and the partial window; it says no "ok"
        String row = lines.stream().filter(l -> l.startsWith("drivesTheContainer")).findFirst()
                .orElseThrow(() -> new AssertionError("no console row in:\n" + String.join("\n", lines)));
        assertThat(row).contains("ENGINE GONE at ").contains("(partial window); 0/1 breached")
                .doesNotContain(" ok");

        // the JSON report carries the fault, with when the engine was last seen and the partial window
        JsonNode json = new ObjectMapper().readTree(reports.resolve(EngineDeathMain.Fixture.class.getName()
                .replace('$', '.')).resolve("drivesTheContainer.json").toFile());
        JsonNode fault = json.at("/containers/0/fault");
        assertThat(fault.get("kind").asText()).isEqualTo("ENGINE_GONE");
        assertThat(fault.get("partialWindow").asBoolean()).isTrue();
        double lastSeen = fault.get("lastSeenSeconds").asDouble();
        double noticed = fault.get("atSeconds").asDouble();
        double wall = json.at("/containers/0/usage/wallSeconds").asDouble(Double.NaN);
        System.out.printf("last seen at %.2f s, no answer at %.2f s, window %.2f s of a %d s test%n", lastSeen,
                noticed, wall, EngineDeathMain.TEST_LENGTH.toSeconds());
        // killed about 2 s in (after the child printed, so a little later): pings every second saw it up to then
        assertThat(lastSeen).isBetween(0.5, KILL_AFTER.toMillis() / 1000.0 + 1.5);
        assertThat(noticed).isGreaterThanOrEqualTo(lastSeen).isLessThan(KILL_AFTER.toMillis() / 1000.0 + 3.0);
        assertThat(json.at("/test/outcome").asText()).isEqualTo("FAILED");
        assertThat(fault.get("description").asText()).contains("tcp://127.0.0.1:23750");

        // once the engine is back, no container of the test remains on it
        assertThat(lines).as("the engine answered again before the fixture class ended").contains("ENGINE BACK");
        // said through the io.vitals.engine logger, which slf4j-simple (on the child's classpath) writes to stderr
        assertThat(errors).anyMatch(l -> l.contains("INFO io.vitals.engine - removed container 'stress' ("));
        String left = DockerCli.run("-H", EngineDeathMain.SECOND_ENGINE, "ps", "-aq", "--filter",
                "label=" + EngineDeathMain.LABEL + "=" + label).strip();
        if (!left.isEmpty()) {
            DockerCli.run(concat("-H", EngineDeathMain.SECOND_ENGINE, "rm", "-f", left.split("\\s+")));
        }
        assertThat(left).as("containers of the test left on the engine (removed now)").isEmpty();
        System.out.printf("from the kill to the child's end: %.1f s%n", (System.nanoTime() - killedAt) / 1e9);
    }

    private Process startChild(Path reports, String label, Path stderr) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                EngineDeathMain.class.getName(), reports.toString(), label);
        builder.environment().put("DOCKER_HOST", EngineDeathMain.SECOND_ENGINE);
        builder.environment().put("TESTCONTAINERS_RYUK_DISABLED", "true");
        builder.environment().put("TESTCONTAINERS_HOST_OVERRIDE", "localhost");
        builder.environment().put("HOME", reports.toString()); // no ~/.testcontainers.properties naming a strategy
        builder.redirectError(stderr.toFile());
        return builder.start();
    }

    /** Reads lines into {@code lines} up to one starting with {@code prefix} (returned), or to the end (null). */
    private static String readUntil(BufferedReader out, List<String> lines, String prefix) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
            if (prefix != null && line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    /** Starts the second engine again, as the setup does (idempotent: nothing happens while it answers). */
    private static void restartEngine() throws IOException, InterruptedException {
        Path script = repositoryRoot().resolve("examples/setup/second-engine.sh");
        Process process = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(script + " failed: " + output);
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("examples/setup/second-engine.sh"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("examples/setup/second-engine.sh not found above "
                    + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static String[] concat(String a, String b, String c, String d, String[] rest) {
        List<String> all = new ArrayList<>(List.of(a, b, c, d));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }
}
