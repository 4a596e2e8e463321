package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a reachable engine a class fails with the reason (the default), or, when the user opted in with
 * {@code vitals.requireDocker=false}, is skipped with it, with one clear line rather than a stack trace soup.
 * Run in a child JVM, since Testcontainers resolves its engine once per JVM and this one has a working engine;
 * needs root, for the child's private mount namespace.
 */
@DisplayName("Docker missing")
class DockerMissingIT {

    @TempDir
    Path reports;

    private Path stderr;

    @Test
    @DisplayName("by default, the class fails with the reason and how to skip instead")
    void failsByDefault() throws Exception {
        List<String> lines = runWithoutDocker(DockerMissingMain.DEFAULT);

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("FAILED java.lang.IllegalStateException: "
                + "A Docker engine is required (vitals.requireDocker=true, the default; set it to false to skip "
                + "instead) but none is reachable: no Docker engine answers at unix:///var/run/docker.sock"));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("SKIPPED"));
    }

    @Test
    @DisplayName("with vitals.requireDocker=true, the class fails with the reason")
    void failsWhenRequired() throws Exception {
        List<String> lines = runWithoutDocker("true");

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("FAILED java.lang.IllegalStateException: "
                + "A Docker engine is required (vitals.requireDocker=true, the default; set it to false to skip "
                + "instead) but none is reachable: "));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("SKIPPED"));
    }

    @Test
    @DisplayName("with vitals.requireDocker=false, the class is skipped with the reason, said on standard error too")
    void skippedWhenOptedOut() throws Exception {
        List<String> lines = runWithoutDocker("false");

        String reason = "Docker is not available (no Docker engine answers at unix:///var/run/docker.sock";
        String ending = "); skipped because vitals.requireDocker=false (leave it unset, or set it to true, to fail "
                + "instead)";
        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("SKIPPED " + reason).endsWith(ending));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("FAILED"));
        // through the io.vitals.engine logger; the child has the test classpath, so slf4j-simple writes it to stderr
        assertThat(Files.readAllLines(stderr)).anySatisfy(line -> assertThat(line)
                .contains("INFO io.vitals.engine - DockerMissingMain$Fixture SKIPPED: " + reason).endsWith(ending));
    }

    private List<String> runWithoutDocker(String requireDocker) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Testcontainers falls back to /var/run/docker.sock whatever DOCKER_HOST says, so the child runs in a
        // mount namespace of its own where /run (and so the socket) is an empty tmpfs: no engine to be found.
        String command = "mount -t tmpfs tmpfs /run && exec \"$0\" \"$@\"";
        ProcessBuilder builder = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c",
                command, java, "-cp", System.getProperty("java.class.path"), DockerMissingMain.class.getName(),
                requireDocker, reports.toString());
        builder.environment().remove("DOCKER_HOST");
        builder.environment().put("TESTCONTAINERS_RYUK_DISABLED", "true");
        builder.environment().put("HOME", reports.toString()); // no ~/.testcontainers.properties naming a strategy
        stderr = reports.resolve("stderr.txt");
        builder.redirectError(stderr.toFile());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return output.lines().toList();
    }
}
