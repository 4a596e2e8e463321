package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.ProbeMode;
import org.apiguardian.api.API;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * Opens the right probe for a container. The host probe is used only when the container's cgroup is really the
 * one we can read: {@code /proc/<pid>/cgroup} on this machine must name the container's ID (both docker cgroup
 * drivers put it in the path). A PID from a remote engine, or from a VM as with Docker Desktop, fails that check
 * and falls back to the Engine API instead of silently reading some unrelated local process.
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
    private final ObjectMapper json = new ObjectMapper();

    public ProbeFactory(CgroupLocator locator, Path procRoot, Clock wallClock, Supplier<DockerHttpClient> engine) {
        this(locator, procRoot, wallClock, engine, List.of());
    }

    /** A factory whose probes stack {@code sources}, in this order, on their base figures. */
    public ProbeFactory(CgroupLocator locator, Path procRoot, Clock wallClock, Supplier<DockerHttpClient> engine,
            List<ReadingSource> sources) {
        this.locator = locator;
        this.procRoot = procRoot;
        this.wallClock = wallClock;
        this.engine = engine;
        this.sources = StackedProbe.requireDistinctKeys(sources);
    }

    public static ProbeFactory forThisHost(Supplier<DockerHttpClient> engine) {
        return forThisHost(engine, List.of());
    }

    public static ProbeFactory forThisHost(Supplier<DockerHttpClient> engine, List<ReadingSource> sources) {
        return new ProbeFactory(CgroupLocator.forThisHost(), Path.of("/proc"), Clock.systemUTC(), engine, sources);
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
            case AUTO -> {
                try {
                    yield hostProbe(target);
                } catch (ContainerGoneException e) {
                    throw e;
                } catch (ProbeException e) {
                    yield apiProbe(target);
                }
            }
        };
    }

    private ResourceProbe apiProbe(ContainerTarget target) {
        return new EngineApiProbe(engine.get(), json, target.id(), target.name(), target.memoryLimit(), wallClock);
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
