package io.vitals.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.SecondEngine;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The Vitals agent's faults on the second engine ({@code tcp://127.0.0.1:23750}, examples/setup/second-engine.sh, or
 * the engine {@code -Dvitals.it.agentEngine} names): the agent killed while a window is open, and its image missing.
 * Each test starts an agent of its own, so that the one {@link AgentProbeIT} measures with is left alone. They fail
 * the same way on any engine, so the cgroup v2 guests do not run them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Vitals agent on a second engine: its faults")
class AgentFaultsIT {

    private static final SecondEngine ENGINE = AgentProbeIT.ENGINE;

    private DockerHttpClient http;
    private DockerHttpClient stream;
    private Sampler sampler;
    private String containerId;

    @BeforeAll
    void secondEngine() {
        ENGINE.require("AgentFaultsIT", StressContainer.IMAGE, EngineAgent.DEFAULT_IMAGE);
        http = ENGINE.client();
        stream = ENGINE.client();
    }

    @AfterAll
    void closeClients() throws Exception {
        stream.close();
        http.close();
    }

    @BeforeEach
    void startContainer() throws Exception {
        sampler = new Sampler("vitals-agent-faults-it-sampler");
        containerId = ENGINE.startStress(512L * 1024 * 1024);
    }

    @AfterEach
    void removeContainer() throws Exception {
        sampler.close();
        ENGINE.cli("rm", "-f", containerId);
    }

    /** Host probe first (it fails: the second engine's PIDs are not in its containers' cgroups here), then agent. */
    private ProbeFactory factory(EngineAgent agent, List<String> warnings) {
        return new ProbeFactory(new CgroupLocator(Path.of("/nonexistent")), Path.of("/nonexistent"),
                Clock.systemUTC(), () -> http, List.of(), Optional.of(agent), warnings::add);
    }

    // A guard against a hang, not the check that nothing hangs (the window's close under 5 s, below, is): it covers
    // the agent's start, two sleeps and a docker kill. In the emulated cgroup v2 guests the test took 41 s on a
    // quiet run and passed 60 s next to a busy core (2026-12-03, timed out inside the docker kill), so it leaves
    // room for both.
    @Test
    @Timeout(300)
    @DisplayName("the agent killed mid-window: the window ends at once, with read errors, and later opens fall back")
    void agentKilledMidWindow() throws Exception {
        EngineAgent own = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream, Clock.systemUTC());
        List<String> warnings = new ArrayList<>();
        ProbeFactory factory = factory(own, warnings);
        try {
            ResourceProbe probe = factory.open(ENGINE.targetOf(containerId), ProbeMode.AUTO);
            try (ContainerWatch watch = ContainerWatch.start("stress", StressContainer.IMAGE, probe,
                    Duration.ofMillis(50), sampler)) {
                MeasurementWindow window = watch.openWindow();
                Thread.sleep(300);
                ENGINE.cli("kill", own.containerId().orElseThrow());
                Thread.sleep(500);
                long start = System.nanoTime();
                ResourceUsage usage = window.close();
                long closeMillis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("agent killed mid-window: window closed in %d ms, %d samples, %d read errors, "
                        + "container gone: %s%n", closeMillis, usage.timeline().samples(),
                        usage.timeline().readErrors(), window.containerGoneReason().orElse("no"));
                assertThat(usage.timeline().readErrors()).isPositive();
                assertThat(window.containerGoneReason()).as("the agent's death is not the container's").isEmpty();
                assertThat(closeMillis).isLessThan(5_000);
            }
            ResourceProbe fallback = factory.open(ENGINE.targetOf(containerId), ProbeMode.AUTO);
            assertThat(fallback.kind()).isEqualTo(ProbeKind.ENGINE_API);
            assertThat(warnings).singleElement().asString().contains("stopped answering")
                    .contains("Engine API measures instead");
            assertThatThrownBy(() -> factory.open(ENGINE.targetOf(containerId), ProbeMode.AGENT))
                    .hasMessageContaining("stopped answering");
        } finally {
            own.close();
        }
    }

    @Test
    @DisplayName("the agent image missing: one warning naming the image and the fix, and the Engine API measures")
    void imageMissing() throws Exception {
        EngineAgent missing = new EngineAgent("vitals/agent:missing", () -> http, () -> stream, Clock.systemUTC());
        List<String> warnings = new ArrayList<>();
        ProbeFactory factory = factory(missing, warnings);
        try (ResourceProbe first = factory.open(ENGINE.targetOf(containerId), ProbeMode.AUTO);
                ResourceProbe second = factory.open(ENGINE.targetOf(containerId), ProbeMode.AUTO)) {
            System.out.println("image missing: " + warnings);
            assertThat(first.kind()).isEqualTo(ProbeKind.ENGINE_API);
            assertThat(second.kind()).isEqualTo(ProbeKind.ENGINE_API);
            assertThat(warnings).singleElement().asString().contains("vitals/agent:missing")
                    .contains("examples/setup/images.sh").contains("vitals.agent.image")
                    .contains("Engine API measures instead");
        } finally {
            missing.close();
        }
    }
}
