package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine measured is the engine named: when {@code DOCKER_HOST} names an engine that does not answer,
 * Testcontainers falls back to the default socket, where this host's engine does answer, and the tests would pass
 * there. Vitals fails the class instead, before any test runs, naming the engine named, why it did not answer and
 * the engine Testcontainers would have used; {@code vitals.requireDocker=false} does not turn that into a skip,
 * since an engine is there, just not the one asked for. Run in a child JVM, since Testcontainers resolves its
 * engine once per JVM.
 */
@DisplayName("DOCKER_HOST naming an engine that does not answer")
class EngineNamedIT {

    @TempDir
    Path reports;

    @ParameterizedTest(name = "vitals.requireDocker={0}")
    @ValueSource(strings = {DockerMissingMain.DEFAULT, "false"})
    @DisplayName("fails the class naming that engine, the error and the engine Testcontainers would have used")
    void failsNamingBothEngines(String requireDocker) throws Exception {
        List<String> lines = run(requireDocker);

        assertThat(lines).anySatisfy(line -> assertThat(line).isEqualTo("FAILED java.lang.IllegalStateException: "
                + "DOCKER_HOST names the Docker engine unix:///nonexistent.sock, which does not answer (no such "
                + "socket: /nonexistent.sock); Testcontainers would have used unix:///var/run/docker.sock instead. "
                + "Vitals measures only the engine named: start that engine, or correct or unset DOCKER_HOST."));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("SKIPPED"));
    }

    private List<String> run(String requireDocker) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                DockerMissingMain.class.getName(), requireDocker, reports.toString());
        builder.environment().put("DOCKER_HOST", "unix:///nonexistent.sock");
        builder.environment().put("TESTCONTAINERS_RYUK_DISABLED", "true");
        builder.environment().put("TESTCONTAINERS_HOST_OVERRIDE", "localhost");
        builder.environment().put("HOME", reports.toString()); // no ~/.testcontainers.properties naming a strategy
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return output.lines().toList();
    }
}
