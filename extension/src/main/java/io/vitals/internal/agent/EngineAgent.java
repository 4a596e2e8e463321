package io.vitals.internal.agent;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.MeasureResources;
import io.vitals.internal.probe.CgroupAgent;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ResourceProbe;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import org.apiguardian.api.API;

/**
 * The agent of one engine for one test run: started on the first container the host probe cannot read, shared by
 * every probe after it, and stopped by {@link #close()} (the run's end) or, should this JVM die first, by the
 * engine closing its stdin. An agent that could not start is not retried: every later open fails at once with
 * the first reason, so a run without the image pays the attempt once.
 */
@API(status = INTERNAL, since = "0.1")
public final class EngineAgent implements CgroupAgent, AutoCloseable {

    /** The setting naming the agent image. */
    public static final String IMAGE_KEY = MeasureResources.AGENT_IMAGE_KEY;
    public static final String DEFAULT_IMAGE = "vitals/agent:latest";
    /** The setting that lets the agent reset the kernel's memory high-water marks. */
    public static final String RESET_PEAKS_KEY = MeasureResources.AGENT_RESET_PEAKS_KEY;
    /** How long one answer may take before the agent counts as hung. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(20);
    /**
     * How long the first answer may take: the agent's JVM starting, once per session. 1-4 s here, 6-18 s in the
     * cgroup v2 guests under software emulation (measured 2026-12-02), so 20 s would fail a slow engine's start.
     */
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String image;
    private final boolean resetPeaks;
    private final Supplier<DockerHttpClient> control;
    private final Supplier<DockerHttpClient> stream;
    private final Clock wallClock;
    private AgentContainer.Started started;
    private ProbeException failed;

    /**
     * An agent that mounts the host's cgroups read-only, as cAdvisor does: marks are not reset per window.
     *
     * @param control the Engine API client of the engine the tests use
     * @param stream a client of the same engine without a response timeout, for the attach stream
     */
    public EngineAgent(String image, Supplier<DockerHttpClient> control, Supplier<DockerHttpClient> stream,
            Clock wallClock) {
        this(image, false, control, stream, wallClock);
    }

    /**
     * @param resetPeaks whether the host's cgroups are mounted writable, so that the agent can reset the memory
     *     high-water mark per window where the kernel allows it (v1; v2 from Linux 6.12)
     * @param control the Engine API client of the engine the tests use
     * @param stream a client of the same engine without a response timeout, for the attach stream
     */
    public EngineAgent(String image, boolean resetPeaks, Supplier<DockerHttpClient> control,
            Supplier<DockerHttpClient> stream, Clock wallClock) {
        this.image = image;
        this.resetPeaks = resetPeaks;
        this.control = control;
        this.stream = stream;
        this.wallClock = wallClock;
    }

    @Override
    public ResourceProbe open(ContainerTarget target) throws ProbeException {
        return AgentProbe.open(connection(), target, wallClock);
    }

    /** How long the agent took to start and answer; empty before it has. */
    public synchronized Optional<Duration> startTime() {
        return Optional.ofNullable(started).map(AgentContainer.Started::startTime);
    }

    /** Where the agent's start went, step by step; empty before it has started. */
    synchronized Optional<AgentContainer.StartSteps> startSteps() {
        return Optional.ofNullable(started).map(AgentContainer.Started::steps);
    }

    /** The agent container's ID; empty before it has started. */
    public synchronized Optional<String> containerId() {
        return Optional.ofNullable(started).map(AgentContainer.Started::containerId);
    }

    private synchronized AgentConnection connection() throws ProbeException {
        if (failed != null) {
            throw new AgentUnavailableException(failed.getMessage(), failed);
        }
        if (started == null) {
            try {
                started = new AgentContainer(control.get(), stream.get()).start(image, resetPeaks, ANSWER_TIMEOUT);
            } catch (ProbeException e) {
                failed = e;
                throw e;
            }
        }
        Optional<String> broken = started.connection().broken();
        if (broken.isPresent()) {
            throw new AgentUnavailableException(broken.get());
        }
        return started.connection();
    }

    @Override
    public synchronized void close() {
        if (started != null) {
            started.connection().close();
        }
    }
}
