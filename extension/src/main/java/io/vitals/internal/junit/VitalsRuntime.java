package io.vitals.internal.junit;

import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import io.vitals.internal.agent.EngineAgent;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.sampling.Sampler;
import io.vitals.internal.settings.InvalidSettingException;
import io.vitals.internal.source.SourceKinds;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.TransportConfig;

/**
 * What one test run shares, kept in the root store and closed with it: the sampler thread, the probe factory, its
 * Engine API client and its agent (started on the engine only if a container's cgroup cannot be read here), and the Docker availability check. Nothing here is static, so two launchers in one JVM
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
    private final EngineAgent agent;
    private DockerHttpClient engineClient;
    private DockerHttpClient streamClient;
    private DockerAvailability docker;

    /** @param config the run-wide settings, for the further sources ({@link SourceKinds}) stacked on every probe */
    VitalsRuntime(Function<String, Optional<String>> config) {
        try {
            this.agent = new EngineAgent(config.apply(EngineAgent.IMAGE_KEY).filter(image -> !image.isBlank())
                    .orElse(EngineAgent.DEFAULT_IMAGE), this::engineClient, this::streamClient, Clock.systemUTC());
            this.probes = ProbeFactory.forThisHost(this::engineClient, SourceKinds.sources(config), agent,
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

    /** The HTTP client for the Engine API probe, on the transport Testcontainers itself resolved. */
    private synchronized DockerHttpClient engineClient() {
        if (engineClient == null) {
            TransportConfig transport = DockerClientFactory.instance().getTransportConfig();
            engineClient = new ZerodepDockerHttpClient.Builder()
                    .dockerHost(transport.getDockerHost())
                    .sslConfig(transport.getSslConfig())
                    .connectionTimeout(Duration.ofSeconds(5))
                    .responseTimeout(Duration.ofSeconds(10))
                    .build();
        }
        return engineClient;
    }

    /** A client for the agent's attach stream: no response timeout, since the stream idles between tests. */
    private synchronized DockerHttpClient streamClient() {
        if (streamClient == null) {
            TransportConfig transport = DockerClientFactory.instance().getTransportConfig();
            streamClient = new ZerodepDockerHttpClient.Builder()
                    .dockerHost(transport.getDockerHost())
                    .sslConfig(transport.getSslConfig())
                    .connectionTimeout(Duration.ofSeconds(5))
                    .build();
        }
        return streamClient;
    }

    @Override
    public synchronized void close() {
        sampler.close();
        agent.close();
        stranded.removeIfBack(engine, UserLog.named(UserLog.ENGINE).infoLines(), true);
        if (streamClient != null) {
            try {
                streamClient.close();
            } catch (IOException e) {
                // the run is over; an unclean socket close loses nothing
            }
            streamClient = null;
        }
        if (engineClient != null) {
            try {
                engineClient.close();
            } catch (IOException e) {
                // the run is over; an unclean socket close loses nothing
            }
            engineClient = null;
        }
    }
}
