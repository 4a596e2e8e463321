package io.vitals.internal.junit.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.agent.EngineAgent;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Vitals agent of one launcher session, with Engine API clients of its own: kept in the launcher session's store,
 * not the run's, because Surefire and Failsafe run each test class of a fork as an execution request of its own
 * within one session, and an agent per class would cost each class the agent's start (1-3 s). It is not started
 * until a container's cgroup cannot be read here, and is stopped when the session closes (or, should the JVM die
 * first, by the engine closing its stdin).
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing it on the JUnit versions before that
@SuppressWarnings("deprecation")
@API(status = INTERNAL, since = "0.1")
public final class SessionAgent implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private final EngineClients clients = new EngineClients();
    private final EngineAgent agent;

    /** @param config the run-wide settings: the agent's image and whether it may reset marks */
    public SessionAgent(Function<String, Optional<String>> config) {
        SettingsReader settings = new SettingsReader(config);
        this.agent = new EngineAgent(config.apply(EngineAgent.IMAGE_KEY).filter(image -> !image.isBlank())
                .orElse(EngineAgent.DEFAULT_IMAGE), settings.read(EngineAgent.RESET_PEAKS_KEY, SettingParser.bool(),
                        false), clients::requests, clients::streams, Clock.systemUTC());
    }

    public EngineAgent agent() {
        return agent;
    }

    @Override
    public void close() {
        agent.close();
        clients.close();
    }
}
