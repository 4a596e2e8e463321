package io.vitals.testing;

import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import io.vitals.ProbeMode;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.Sampler;

import java.net.URI;
import java.time.Duration;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ContainerState;

/** Opens probes and watches on running test containers, the way the extension does, for measurement-core tests. */
public final class Probes {

    private Probes() {
    }

    public static ContainerTarget targetOf(ContainerState container, String name) {
        return ContainerTarget.of(name, container.getContainerInfo());
    }

    public static ResourceProbe open(ContainerState container, ProbeMode mode) throws ProbeException {
        return open(container, mode, DockerClientFactory.instance().getTransportConfig().getDockerHost());
    }

    /** A probe whose Engine API client talks to the engine at {@code dockerHost}. */
    public static ResourceProbe open(ContainerState container, ProbeMode mode, URI dockerHost)
            throws ProbeException {
        ProbeFactory factory = ProbeFactory.forThisHost(
                () -> new ZerodepDockerHttpClient.Builder().dockerHost(dockerHost).build());
        return factory.open(targetOf(container, "c"), mode);
    }

    /**
     * A watch on a container started for this test alone, as the extension opens for instance fields: its first
     * window may use the kernel's lifetime high-water mark where the probe cannot reset it.
     */
    public static ContainerWatch watchPerTest(ContainerState container, ProbeMode mode, Duration interval,
            Sampler sampler) throws ProbeException {
        ResourceProbe probe = open(container, mode);
        return ContainerWatch.start("c", container.getContainerInfo().getConfig().getImage(), probe, interval, sampler,
                true);
    }

    public static ContainerWatch watch(ContainerState container, ProbeMode mode, Duration interval, Sampler sampler)
            throws ProbeException {
        ResourceProbe probe = open(container, mode);
        return ContainerWatch.start("c", container.getContainerInfo().getConfig().getImage(), probe, interval, sampler);
    }
}
