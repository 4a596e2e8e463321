package io.vitals.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code docker} CLI, for tests that compare our figures with the CLI's own ({@code docker stats}) or that
 * drive an engine Testcontainers is not pointed at ({@code docker -H tcp://…}).
 */
public final class DockerCli {

    /** Long enough for a {@code docker run} of a cached image on a busy machine; a hung engine fails the test. */
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    private DockerCli() {
    }

    /** Runs {@code docker args…}, returns its standard output, and fails with its output on a non-zero exit. */
    public static String run(String... args) throws IOException, InterruptedException {
        return run(DEFAULT_TIMEOUT, args);
    }

    /**
     * As {@link #run(String...)}, within {@code timeout}: for commands whose time grows with their arguments, such as
     * a benchmark's {@code docker rm -f} of a hundred containers.
     */
    public static String run(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(List.of(args));
        // both streams go to files, so that the wait below is what bounds the command: reading a pipe to its end
        // would block for as long as a hung CLI kept it open
        Path output = Files.createTempFile("vitals-docker-cli", ".out");
        Path errors = Files.createTempFile("vitals-docker-cli", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(output.toFile())
                    .redirectError(errors.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("'" + String.join(" ", command) + "' did not finish within "
                        + timeout.toSeconds() + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", command) + "' exited " + process.exitValue() + ": "
                        + Files.readString(errors, StandardCharsets.UTF_8).strip());
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(output);
            Files.deleteIfExists(errors);
        }
    }
}
