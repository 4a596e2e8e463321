package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * An engine that answers while Testcontainers cannot use it (its Ryuk image cannot be pulled, or inside a container
 * it needs a host override) is told apart from a missing engine, with the setting that fixes it, within seconds
 * instead of minutes of retries. Run in a child JVM with the environment set wrongly, since Testcontainers
 * resolves its engine once per JVM; needs a host where testcontainers/ryuk cannot be pulled (this project's CI and
 * development hosts have no registry access).
 *
 * <p>Whether a missing host override breaks Testcontainers depends on where the tests run and on the engine, by
 * Testcontainers' own rule ({@code DockerClientProviderStrategy.resolveDockerHostIpAddress}): outside a container
 * it uses {@code localhost}; inside one (a {@code /.dockerenv} file exists) it takes the gateway of the engine's
 * {@code bridge} network, and only when that network names no gateway does it start a helper container to find
 * the host's address, which cannot be pulled here. Both cases occur on this project's hosts (an engine started
 * afresh names its gateway; one whose {@code docker0} was made by another engine may not), so the test reads the
 * same facts as the rule and asserts what it implies: the hint where the override is needed, and tests that run,
 * with no false hint, where it is not.
 */
@DisplayName("Docker engine fine, Testcontainers misconfigured")
class DockerMisconfiguredIT {

    private static final String FAILED = "FAILED java.lang.IllegalStateException: A Docker engine is required "
            + "(vitals.requireDocker=true, the default; set it to false to skip instead) but none is reachable: ";

    private static final String UNUSABLE = "the Docker engine at unix:///var/run/docker.sock answers GET /_ping, "
            + "but Testcontainers cannot use it: ";

    @TempDir
    Path reports;

    @Test
    @DisplayName("without TESTCONTAINERS_RYUK_DISABLED, the class fails naming that setting")
    void ryukNotPullable() throws Exception {
        List<String> lines = run(Map.of());

        assertThat(lines).anySatisfy(line -> assertThat(line).startsWith(FAILED + UNUSABLE)
                .contains("TESTCONTAINERS_RYUK_DISABLED=true"));
        assertThat(lines).contains("TESTS STARTED 0");
    }

    @Test
    @DisplayName("with Ryuk off but no TESTCONTAINERS_HOST_OVERRIDE: inside a container, the class fails naming "
            + "that setting; elsewhere, the tests run")
    void hostOverrideMissing() throws Exception {
        List<String> lines = run(Map.of("TESTCONTAINERS_RYUK_DISABLED", "true"));

        if (Files.exists(Path.of("/.dockerenv")) && !bridgeNamesAGateway()) {
            assertThat(lines).anySatisfy(line -> assertThat(line).startsWith(FAILED + UNUSABLE)
                    .contains("TESTCONTAINERS_HOST_OVERRIDE=localhost")
                    .doesNotContain("TESTCONTAINERS_RYUK_DISABLED=true"));
            assertThat(lines).contains("TESTS STARTED 0");
        } else {
            assertThat(lines).noneMatch(line -> line.startsWith("SKIPPED") || line.startsWith("FAILED"))
                    .contains("TESTS STARTED 1");
        }
    }

    /** Read from the engine as Testcontainers reads it, through the parent JVM's (correctly configured) client. */
    private static boolean bridgeNamesAGateway() {
        return DockerClientFactory.instance().client().inspectNetworkCmd().withNetworkId("bridge").exec().getIpam()
                .getConfig().stream().anyMatch(config -> config.getGateway() != null);
    }

    private List<String> run(Map<String, String> environment) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                DockerMissingMain.class.getName(), DockerMissingMain.DEFAULT, reports.toString());
        builder.environment().remove("DOCKER_HOST");
        builder.environment().remove("TESTCONTAINERS_RYUK_DISABLED");
        builder.environment().remove("TESTCONTAINERS_HOST_OVERRIDE");
        builder.environment().putAll(environment);
        builder.environment().put("HOME", reports.toString()); // no ~/.testcontainers.properties
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        long started = System.nanoTime();
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        // a figure for the record, not a bound: the point is seconds instead of minutes
        System.out.printf("diagnosed in %.1f s with %s%n", (System.nanoTime() - started) / 1e9, environment);
        return output.lines().toList();
    }
}
