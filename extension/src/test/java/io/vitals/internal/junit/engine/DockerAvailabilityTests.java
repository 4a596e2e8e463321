package io.vitals.internal.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("DockerAvailability: the engine measured is the engine named")
class DockerAvailabilityTests {

    private static final Optional<DockerAvailability.NamedEngine> NAMED =
            Optional.of(new DockerAvailability.NamedEngine("DOCKER_HOST", "tcp://ci-engine:2375"));

    @Test
    @DisplayName("DOCKER_HOST wins over docker.host of ~/.testcontainers.properties; blank counts as unset")
    void namedEngine() {
        assertThat(DockerAvailability.namedEngine(Map.of("DOCKER_HOST", "tcp://a:1"), "tcp://b:2"))
                .contains(new DockerAvailability.NamedEngine("DOCKER_HOST", "tcp://a:1"));
        assertThat(DockerAvailability.namedEngine(Map.of("DOCKER_HOST", " "), "tcp://b:2"))
                .contains(new DockerAvailability.NamedEngine("docker.host in ~/.testcontainers.properties",
                        "tcp://b:2"));
        assertThat(DockerAvailability.namedEngine(Map.of(), null)).isEmpty();
    }

    @Test
    @DisplayName("a named engine that did not answer, replaced by another, fails whatever requireDocker says")
    void namedEngineGone() {
        DockerAvailability docker = DockerAvailability.usedEngine(NAMED,
                Optional.of(EnginePing.Answer.no("ConnectException: Connection refused")),
                "unix:///var/run/docker.sock");

        assertThat(docker.failsAlways()).isTrue();
        assertThat(docker.unavailableReason()).contains("DOCKER_HOST names the Docker engine tcp://ci-engine:2375, "
                + "which does not answer (ConnectException: Connection refused); Testcontainers would have used "
                + "unix:///var/run/docker.sock instead. Vitals measures only the engine named: start that engine, or "
                + "correct or unset DOCKER_HOST.");
    }

    @Test
    @DisplayName("the engine named and used, or none named: available")
    void sameEngine() {
        assertThat(DockerAvailability.usedEngine(NAMED, Optional.of(new EnginePing.Answer(true, "OK")),
                "tcp://ci-engine:2375/").unavailableReason()).isEmpty();
        assertThat(DockerAvailability.usedEngine(Optional.empty(), Optional.of(EnginePing.Answer.no("gone")),
                "unix:///var/run/docker.sock").unavailableReason()).isEmpty();
    }

    @Test
    @DisplayName("a named engine that answered while Testcontainers chose another: available, and said")
    void otherEngineUsed() {
        DockerAvailability docker = DockerAvailability.usedEngine(NAMED,
                Optional.of(new EnginePing.Answer(true, "OK")), "unix:///var/run/docker.sock");

        assertThat(docker.unavailableReason()).isEmpty();
        assertThat(docker.failsAlways()).isFalse();
    }
}
