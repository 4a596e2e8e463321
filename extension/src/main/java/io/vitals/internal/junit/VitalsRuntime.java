package io.vitals.internal.junit;

import io.vitals.internal.agent.EngineAgent;
import io.vitals.internal.junit.engine.DockerAvailability;
import io.vitals.internal.junit.engine.EngineClients;
import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.junit.engine.SessionAgent;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.sampling.Sampler;
import io.vitals.internal.settings.InvalidSettingException;
import io.vitals.internal.source.SourceKinds;

import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What one test run shares, kept in the root store and closed with it: the sampler thread, the probe factory and its
 * Engine API client, and the Docker availability check. The agent it hands the probe factory is the launcher
 * session's ({@link SessionAgent}), which outlives the run. Nothing here is static, so two launchers in one JVM
 * (as in the extension's own engine-kit tests) never share state.
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing us on every JUnit 5.10+ release.
@SuppressWarnings("deprecation")
final class VitalsRuntime implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private final Sampler sampler = new Sampler("vitals-sampler");
    private final EngineHeartbeat engine = new EngineHeartbeat();
    private final StrandedContainers stranded = new StrandedContainers();
    private final ProbeFactory probes;
    private final EngineClients clients = new EngineClients();
    private DockerAvailability docker;

    /**
     * @param config the run-wide settings, for the further sources ({@link SourceKinds}) stacked on every probe
     * @param agent the launcher session's agent, tried where a container's cgroup cannot be read here
     */
    VitalsRuntime(Function<String, Optional<String>> config, EngineAgent agent) {
        try {
            this.probes = ProbeFactory.forThisHost(clients::requests, SourceKinds.sources(config), agent,
                    UserLog.named(UserLog.ENGINE).warnings());
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(e.getMessage(), e);
        }
    }

    Sampler sampler() {
        return sampler;
    }

    /** When the engine Testcontainers uses last answered. */
    EngineHeartbeat engine() {
        return engine;
    }

    /** Containers left on an engine that stopped answering. */
    StrandedContainers stranded() {
        return stranded;
    }

    ProbeFactory probes() {
        return probes;
    }

    synchronized DockerAvailability docker() {
        if (docker == null) {
            docker = DockerAvailability.check();
        }
        return docker;
    }

    @Override
    public synchronized void close() {
        sampler.close();
        stranded.removeIfBack(engine, UserLog.named(UserLog.ENGINE).infoLines(), true);
        clients.close();
    }
}
