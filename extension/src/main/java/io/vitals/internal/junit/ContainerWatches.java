package io.vitals.internal.junit;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.DeviceRequest;
import com.github.dockerjava.api.model.HostConfig;
import io.vitals.DataSize;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.sampling.ContainerWatch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerState;

/**
 * The containers watched in one scope (a test class for static fields, a test for instance fields), kept in that
 * scope's store. The store closes it before Testcontainers stops the containers, because we put it there later
 * and stores close in reverse order; a class's watches are also closed explicitly in {@code afterAll}, before the
 * class's store closes and with it Testcontainers stops the class's containers.
 */
// CloseableResource is deprecated since JUnit 5.13 in favour of AutoCloseable; implementing both keeps the store
// closing us on every JUnit 5.10+ release.
@SuppressWarnings("deprecation")
final class ContainerWatches implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    /** A watched container with what docker inspect told about it. */
    record Watched(String containerId, ContainerState container, ContainerWatch watch, ContainerLimits limits) {
    }

    private final Map<String, Watched> byContainerId = new LinkedHashMap<>();
    private final boolean perTest;

    /** {@code perTest}: the scope is one test, whose containers Testcontainers starts for it alone. */
    ContainerWatches(boolean perTest) {
        this.perTest = perTest;
    }

    synchronized Watched watch(String name, ContainerState container, Settings settings, VitalsRuntime runtime)
            throws ProbeException {
        String id = container.getContainerId();
        Watched existing = byContainerId.get(id);
        if (existing != null) {
            return existing;
        }
        InspectContainerResponse info = inspect(container, id);
        ContainerTarget target = ContainerTarget.of(name, info);
        ResourceProbe probe;
        try {
            probe = runtime.probes().open(target, settings.probe());
        } catch (ProbeException e) {
            // the cached inspection may predate a restart (new init PID): ask the engine before giving up
            info = DockerClientFactory.lazyClient().inspectContainerCmd(id).exec();
            target = ContainerTarget.of(name, info);
            probe = runtime.probes().open(target, settings.probe());
        }
        ContainerWatch watch = ContainerWatch.start(name, target.image(), probe, settings.samplingInterval(),
                runtime.sampler(), perTest);
        Watched watched = new Watched(id, container, watch, limitsOf(info.getHostConfig(), target.memoryLimit()));
        byContainerId.put(id, watched);
        return watched;
    }

    /**
     * What docker inspect says about the container: Testcontainers inspected it when it started it, so a started
     * container costs no second round trip to the engine; only one it did not start (or a foreign
     * {@link ContainerState}) is inspected here.
     */
    private static InspectContainerResponse inspect(ContainerState container, String id) {
        InspectContainerResponse cached;
        try {
            cached = container.getContainerInfo();
        } catch (RuntimeException e) {
            cached = null; // a ContainerState that cannot tell: ask the engine
        }
        if (cached != null && id.equals(cached.getId()) && cached.getState() != null
                && cached.getState().getPidLong() != null && cached.getState().getPidLong() > 0) {
            return cached;
        }
        return DockerClientFactory.lazyClient().inspectContainerCmd(id).exec();
    }

    /** The watch of a container this scope already watches. */
    synchronized Optional<Watched> watching(String containerId) {
        return Optional.ofNullable(byContainerId.get(containerId));
    }

    private static ContainerLimits limitsOf(HostConfig host, OptionalLong memory) {
        if (host == null) {
            return ContainerLimits.none();
        }
        OptionalDouble cpus = OptionalDouble.empty();
        if (host.getNanoCPUs() != null && host.getNanoCPUs() > 0) {
            cpus = OptionalDouble.of(host.getNanoCPUs() / 1e9);
        } else if (host.getCpuQuota() != null && host.getCpuQuota() > 0 && host.getCpuPeriod() != null
                && host.getCpuPeriod() > 0) {
            cpus = OptionalDouble.of((double) host.getCpuQuota() / host.getCpuPeriod());
        }
        Optional<String> cpuset = Optional.ofNullable(host.getCpusetCpus()).filter(s -> !s.isEmpty());
        OptionalLong pids = host.getPidsLimit() != null && host.getPidsLimit() > 0
                ? OptionalLong.of(host.getPidsLimit()) : OptionalLong.empty();
        return new ContainerLimits(memory.isPresent() ? Optional.of(DataSize.ofBytes(memory.getAsLong()))
                : Optional.empty(), cpus, cpuset, pids, gpusOf(host.getDeviceRequests()));
    }

    /**
     * The GPU request among {@code requests} (those with the {@code gpu} capability), as {@code docker run --gpus}
     * takes it: {@code all} (count -1), a count, or {@code device=} and the IDs; several requests are joined.
     */
    static Optional<String> gpusOf(List<DeviceRequest> requests) {
        if (requests == null) {
            return Optional.empty();
        }
        List<String> gpus = new ArrayList<>();
        for (DeviceRequest request : requests) {
            boolean gpu = request.getCapabilities() != null
                    && request.getCapabilities().stream().anyMatch(set -> set.contains("gpu"));
            if (!gpu) {
                continue;
            }
            if (request.getDeviceIds() != null && !request.getDeviceIds().isEmpty()) {
                gpus.add("device=" + String.join(",", request.getDeviceIds()));
            } else if (request.getCount() != null && request.getCount() < 0) {
                gpus.add("all");
            } else if (request.getCount() != null && request.getCount() > 0) {
                gpus.add(Integer.toString(request.getCount()));
            }
        }
        return gpus.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", gpus));
    }

    @Override
    public synchronized void close() {
        byContainerId.values().forEach(watched -> watched.watch().close());
        byContainerId.clear();
    }
}
