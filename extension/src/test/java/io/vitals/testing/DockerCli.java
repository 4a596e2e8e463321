package io.vitals.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code docker} CLI, for tests that compare our figures with the CLI's own ({@code docker stats}) or that
 * drive an engine Testcontainers is not pointed at ({@code docker -H tcp://…}).
 */
public final class DockerCli {

    private static final long TIMEOUT_SECONDS = 120;

    private DockerCli() {
    }

    /** Runs {@code docker args…}, returns its standard output, and fails with its output on a non-zero exit. */
    public static String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(List.of(args));
        Path errors = Files.createTempFile("vitals-docker-cli", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            process.getOutputStream().close();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("'" + String.join(" ", command) + "' did not finish within " + TIMEOUT_SECONDS
                        + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("'" + String.join(" ", command) + "' exited " + process.exitValue() + ": "
                        + Files.readString(errors, StandardCharsets.UTF_8).strip());
            }
            return new String(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
