package io.vitals.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.testing.SecondEngine;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The engine refuses what the agent asks for. Two real engines show both sides:
 * <ul>
 * <li>the second engine ({@code examples/setup/second-engine.sh}) refuses privileged containers on this host (the
 * machine runs with reduced capabilities: runc cannot apply a privileged container's capabilities), and the agent
 * starts there all the same, because it asks for no privilege;</li>
 * <li>an engine that remaps users ({@code dockerd --userns-remap}, {@code examples/setup/userns-engine.sh}, or the
 * one named by {@code -Dvitals.it.usernsEngine}) refuses the agent's {@code --pid=host} when creating it: the
 * warning names the engine's reason and the fix, and the Engine API measures instead.</li>
 * </ul>
 */
@DisplayName("The engine refuses what the agent asks for")
class AgentRefusedIT {

    private static final long MIB = 1024 * 1024;
    private static final SecondEngine SECOND = SecondEngine.fromProperty("vitals.it.agentEngine");
    private static final SecondEngine USERNS = new SecondEngine(System.getProperty("vitals.it.usernsEngine",
            "tcp://127.0.0.1:23751"));

    private final ObjectMapper json = new ObjectMapper();

    @Test
    @DisplayName("an engine that refuses privileged containers starts the agent, which asks for no privilege")
    void agentNeedsNoPrivilege() throws Exception {
        SECOND.require("AgentRefusedIT", StressContainer.IMAGE, EngineAgent.DEFAULT_IMAGE);
        Optional<String> refusal = privilegedRefusal(SECOND);
        System.out.println("a privileged container on " + SECOND.host() + ": "
                + refusal.map(reason -> "refused: " + reason).orElse("started"));
        // where privileged containers run (a cgroup v2 guest as root), this cannot show that the agent needs none
        assumeThat(refusal).as("the engine refuses privileged containers").isPresent();
        assertThat(refusal.get()).contains("unable to apply caps");

        String containerId = SECOND.startStress(256 * MIB);
        try (DockerHttpClient http = SECOND.client(); DockerHttpClient stream = SECOND.client();
                EngineAgent agent = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                        Clock.systemUTC())) {
            List<String> warnings = new ArrayList<>();
            try (ResourceProbe probe = factory(http, agent, warnings).open(SECOND.targetOf(containerId),
                    ProbeMode.AUTO)) {
                assertThat(probe.kind()).isIn(ProbeKind.AGENT_CGROUP_V1, ProbeKind.AGENT_CGROUP_V2);
                assertThat(probe.read().pids().current()).isPositive();
                JsonNode host = json.readTree(SECOND.cli("inspect", "--format", "{{json .HostConfig}}",
                        agent.containerId().orElseThrow()));
                System.out.printf("agent container HostConfig: Privileged %s, PidMode %s, CgroupnsMode %s, "
                        + "Binds %s, NetworkMode %s, CapAdd %s%n", host.path("Privileged"), host.path("PidMode"),
                        host.path("CgroupnsMode"), host.path("Binds"), host.path("NetworkMode"), host.path("CapAdd"));
                assertThat(host.path("Privileged").asBoolean()).isFalse();
                assertThat(host.path("PidMode").asText()).isEqualTo("host");
                assertThat(host.path("CgroupnsMode").asText()).isEqualTo("host");
                assertThat(host.path("Binds").toString()).contains("/sys/fs/cgroup:/host-cgroup:ro");
                assertThat(host.path("CapAdd").isNull() || host.path("CapAdd").isEmpty()).as("no added capability")
                        .isTrue();
            }
            assertThat(warnings).isEmpty();
        } finally {
            SECOND.cli("rm", "-f", containerId);
        }
    }

    @Test
    @DisplayName("an engine that remaps users refuses --pid=host: one warning with its reason and the fix, and the "
            + "Engine API measures")
    void refusedByUserRemappingEngine() throws Exception {
        USERNS.require("AgentRefusedIT (run examples/setup/userns-engine.sh, or name such an engine with "
                + "-Dvitals.it.usernsEngine)", StressContainer.IMAGE, EngineAgent.DEFAULT_IMAGE);
        String security = USERNS.cli("info", "--format", "{{json .SecurityOptions}}");
        assertThat(security).as("the engine remaps users, which is what makes it refuse").contains("userns");

        String containerId = USERNS.startStress(256 * MIB);
        try (DockerHttpClient http = USERNS.client(); DockerHttpClient stream = USERNS.client();
                EngineAgent agent = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                        Clock.systemUTC())) {
            List<String> warnings = new ArrayList<>();
            ProbeFactory factory = factory(http, agent, warnings);
            try (ResourceProbe first = factory.open(USERNS.targetOf(containerId), ProbeMode.AUTO);
                    ResourceProbe second = factory.open(USERNS.targetOf(containerId), ProbeMode.AUTO)) {
                System.out.println("user-remapping engine: " + warnings);
                assertThat(first.kind()).isEqualTo(ProbeKind.ENGINE_API);
                assertThat(second.kind()).isEqualTo(ProbeKind.ENGINE_API);
                assertThat(first.read().pids().current()).as("the Engine API measures the container").isPositive();
                assertThat(warnings).singleElement().asString()
                        .contains("refused to create the Vitals agent container")
                        .contains("cannot share the host PID namespace when user namespaces are enabled")
                        .contains("--userns-remap").contains("without privileged mode")
                        .contains("vitals.probe=engine_api").contains("docs/agent.md")
                        .contains("Engine API measures instead");
            }
            assertThatThrownBy(() -> factory.open(USERNS.targetOf(containerId), ProbeMode.AGENT))
                    .hasMessageContaining("cannot share the host PID namespace");
            assertThat(agent.containerId()).as("no agent container was made").isEmpty();
            assertThat(USERNS.cli("ps", "-a", "-q", "--filter", "label=io.vitals.role=agent").strip())
                    .as("no agent container left on the engine").isEmpty();
        } finally {
            USERNS.cli("rm", "-f", containerId);
        }
    }

    /** Host probe first (it fails: these paths hold no cgroups), then the agent, then the Engine API. */
    private static ProbeFactory factory(DockerHttpClient http, EngineAgent agent, List<String> warnings) {
        return new ProbeFactory(new CgroupLocator(Path.of("/nonexistent")), Path.of("/nonexistent"),
                Clock.systemUTC(), () -> http, List.of(), Optional.of(agent), warnings::add);
    }

    /** Creates and starts a privileged container; the engine's refusal, or empty where it runs. */
    private static Optional<String> privilegedRefusal(SecondEngine engine) throws Exception {
        String id = engine.cli("create", "--privileged", "--network", "none", "--label", "io.vitals.managed=true",
                StressContainer.IMAGE, "true").strip();
        try {
            engine.cli("start", id);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        } finally {
            engine.cli("rm", "-f", id);
        }
    }
}
