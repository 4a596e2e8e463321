package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a reachable engine a class is skipped with the reason, or failed when Docker is required, with one
 * clear line rather than a stack trace soup. Run in a child JVM, since Testcontainers resolves its engine once
 * per JVM and this one has a working engine; needs root, for the child's private mount namespace.
 */
@DisplayName("Docker missing")
class DockerMissingIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("by default, the class is skipped with the reason and how to make it fail instead")
    void skippedByDefault() throws Exception {
        List<String> lines = runWithoutDocker("false");

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("SKIPPED Docker is not available (")
                .endsWith("); set vitals.requireDocker=true to fail instead of skipping"));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("FAILED"));
    }

    @Test
    @DisplayName("with vitals.requireDocker=true, the class fails with the reason")
    void failsWhenRequired() throws Exception {
        List<String> lines = runWithoutDocker("true");

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("FAILED java.lang.IllegalStateException: "
                + "A Docker engine is required (vitals.requireDocker=true) but none is reachable: "));
        assertThat(lines).contains("TESTS STARTED 0").noneMatch(line -> line.startsWith("SKIPPED"));
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
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return output.lines().toList();
    }
}
