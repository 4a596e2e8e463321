package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeMode;
import io.vitals.internal.files.MapperOnFirstUse;
import org.apiguardian.api.API;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Opens the right probe for a container. The host probe is used only when the container's cgroup is really the
 * one we can read: {@code /proc/<pid>/cgroup} on this machine must name the container's ID (both docker cgroup
 * drivers put it in the path). A PID from a remote engine, or from a VM as with Docker Desktop, fails that check
 * and falls back to the Engine API instead of silently reading some unrelated local process.
 *
 * <p>Where the host probe cannot read a container, the {@link CgroupAgent} (the Vitals agent container on the
 * container's engine) is tried next: the same files and readers, read on the engine's host. An agent that cannot
 * start is said once, with its reason and fix, on {@code warnings}, and the Engine API measures instead: never
 * silently less.
 *
 * <p>Further {@link ReadingSource}s (a GPU source) are stacked on whichever base probe opens, so their groups
 * arrive in the same readings; without sources the base probe is returned as it is.
 */
@API(status = INTERNAL, since = "0.1")
public final class ProbeFactory {

    private final CgroupLocator locator;
    private final Path procRoot;
    private final Clock wallClock;
    private final Supplier<DockerHttpClient> engine;
    private final List<ReadingSource> sources;
    private final Optional<CgroupAgent> agent;
    private final Consumer<String> warnings;
    private final AtomicBoolean agentWarned = new AtomicBoolean();
    private final MapperOnFirstUse json = new MapperOnFirstUse();

    public ProbeFactory(CgroupLocator locator, Path procRoot, Clock wallClock, Supplier<DockerHttpClient> engine) {
        this(locator, procRoot, wallClock, engine, List.of());
    }

    /** A factory whose probes stack {@code sources}, in this order, on their base figures. */
    public ProbeFactory(CgroupLocator locator, Path procRoot, Clock wallClock, Supplier<DockerHttpClient> engine,
            List<ReadingSource> sources) {
        this(locator, procRoot, wallClock, engine, sources, Optional.empty(), message -> { });
    }

    /**
     * A factory that tries {@code agent} where the host probe cannot read a container, and says on
     * {@code warnings} (once) why the agent could not be used when the Engine API measures instead.
     */
    public ProbeFactory(CgroupLocator locator, Path procRoot, Clock wallClock, Supplier<DockerHttpClient> engine,
            List<ReadingSource> sources, Optional<CgroupAgent> agent, Consumer<String> warnings) {
        this.locator = locator;
        this.procRoot = procRoot;
        this.wallClock = wallClock;
        this.engine = engine;
        this.sources = StackedProbe.requireDistinctKeys(sources);
        this.agent = agent;
        this.warnings = warnings;
    }

    public static ProbeFactory forThisHost(Supplier<DockerHttpClient> engine) {
        return forThisHost(engine, List.of());
    }

    public static ProbeFactory forThisHost(Supplier<DockerHttpClient> engine, List<ReadingSource> sources) {
        return new ProbeFactory(CgroupLocator.forThisHost(), Path.of("/proc"), Clock.systemUTC(), engine, sources);
    }

    /** A factory for this host that tries {@code agent} after the host probe (see the class comment). */
    public static ProbeFactory forThisHost(Supplier<DockerHttpClient> engine, List<ReadingSource> sources,
            CgroupAgent agent, Consumer<String> warnings) {
        return new ProbeFactory(CgroupLocator.forThisHost(), Path.of("/proc"), Clock.systemUTC(), engine, sources,
                Optional.of(agent), warnings);
    }

    /** The sources stacked on every probe this factory opens; empty by default. */
    public List<ReadingSource> sources() {
        return sources;
    }

    public ResourceProbe open(ContainerTarget target, ProbeMode mode) throws ProbeException {
        ResourceProbe base = openBase(target, mode);
        return sources.isEmpty() ? base : new StackedProbe(base, target, sources);
    }

    private ResourceProbe openBase(ContainerTarget target, ProbeMode mode) throws ProbeException {
        return switch (mode) {
            case ENGINE_API -> apiProbe(target);
            case HOST_CGROUP -> hostProbe(target);
            case AGENT -> agent.orElseThrow(() -> new ProbeException("The probe mode AGENT asks for the Vitals agent, "
                    + "but this run has none")).open(target);
            case AUTO -> {
                try {
                    yield hostProbe(target);
                } catch (ContainerGoneException e) {
                    throw e;
                } catch (ProbeException e) {
                    yield agentOrApiProbe(target);
                }
            }
        };
    }

    /**
     * The agent's probe, else the Engine API's. An agent that cannot start is said once, not per container; one
     * that runs but cannot read this container (another engine's container, a cgroup it cannot see) is said too,
     * since the Engine API measures less.
     */
    private ResourceProbe agentOrApiProbe(ContainerTarget target) throws ProbeException {
        if (agent.isEmpty()) {
            return apiProbe(target);
        }
        try {
            return agent.get().open(target);
        } catch (ContainerGoneException e) {
            throw e;
        } catch (CgroupAgent.AgentUnavailableException e) {
            if (agentWarned.compareAndSet(false, true)) {
                warnings.accept(e.getMessage() + " The Docker Engine API measures instead (one sample a second, "
                        + "no kernel high-water mark, no OOM-kill count).");
            }
            return apiProbe(target);
        } catch (ProbeException e) {
            warnings.accept("The Vitals agent cannot read container '" + target.name() + "': " + e.getMessage()
                    + " The Docker Engine API measures it instead.");
            return apiProbe(target);
        }
    }

    private ResourceProbe apiProbe(ContainerTarget target) {
        return new EngineApiProbe(engine.get(), json.get(), target.id(), target.name(), target.memoryLimit(),
                wallClock);
    }

    private ResourceProbe hostProbe(ContainerTarget target) throws ProbeException {
        Path cgroupFile = procRoot.resolve(Long.toString(target.hostPid())).resolve("cgroup");
        String membership;
        try {
            membership = Files.readString(cgroupFile, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new ProbeException("Cannot read " + cgroupFile + " for container '" + target.name()
                    + "': the engine does not run on this host, or its processes are not visible from here", e);
        }
        if (!membership.contains(target.id())) {
            throw new ProbeException("Host PID " + target.hostPid() + " of container '" + target.name()
                    + "' is not in a cgroup of that container here (" + cgroupFile + "): the engine runs "
                    + "elsewhere (remote DOCKER_HOST, Docker Desktop VM)");
        }
        HostCgroupProbe probe = HostCgroupProbe.open(target.name(), target.hostPid(), locator, procRoot,
                wallClock);
        try {
            probe.read(); // prove the files are readable before we rely on them
        } catch (ProbeException e) {
            probe.close();
            throw e;
        }
        return probe;
    }
}
