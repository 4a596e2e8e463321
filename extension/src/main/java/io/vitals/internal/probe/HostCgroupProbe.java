package io.vitals.internal.probe;

import io.vitals.ProbeKind;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Reads a container's cgroup files straight from the host's {@code /sys/fs/cgroup}: a few file reads per sample,
 * no daemon in the path, and the kernel's exact counters. Works only where the tests run on the engine's host
 * and may read its cgroup tree.
 */
public final class HostCgroupProbe implements ResourceProbe {

    private final String containerName;
    private final long hostPid;
    private final Path netDev;
    private final CgroupLayout layout;
    private final CgroupStatsReader reader;
    private final Clock wallClock;

    HostCgroupProbe(String containerName, long hostPid, Path procRoot, CgroupLayout layout, Clock wallClock) {
        this.containerName = containerName;
        this.hostPid = hostPid;
        this.netDev = procRoot.resolve(Long.toString(hostPid)).resolve("net").resolve("dev");
        this.layout = layout;
        this.reader = CgroupStatsReader.forLayout(layout);
        this.wallClock = wallClock;
    }

    /** Opens a probe for the container whose init process has host PID {@code hostPid}. */
    public static HostCgroupProbe open(String containerName, long hostPid, CgroupLocator locator, Path procRoot,
            Clock wallClock) throws ProbeException {
        CgroupLayout layout = locator.locate(hostPid);
        return new HostCgroupProbe(containerName, hostPid, procRoot, layout, wallClock);
    }

    @Override
    public ProbeKind kind() {
        return layout.unifiedOnly() ? ProbeKind.HOST_CGROUP_V2 : ProbeKind.HOST_CGROUP_V1;
    }

    @Override
    public RawReading read() throws ProbeException {
        long[] network = readNetwork();
        try {
            return reader.read(wallClock, network[0], network[1]);
        } catch (NoSuchFileException e) {
            if (!reader.exists()) {
                throw new ContainerGoneException("The cgroup of container '" + containerName + "' is gone ("
                        + e.getFile() + ")");
            }
            throw new ProbeException("Cannot read " + e.getFile() + " for container '" + containerName + "'", e);
        } catch (IOException e) {
            if (!reader.exists()) {
                throw new ContainerGoneException("The cgroup of container '" + containerName + "' is gone");
            }
            throw new ProbeException("Cannot read the cgroup files of container '" + containerName + "': "
                    + e.getMessage(), e);
        }
    }

    private long[] readNetwork() throws ProbeException {
        try {
            return CgroupFiles.parseNetDev(Files.readString(netDev, StandardCharsets.US_ASCII), netDev);
        } catch (NoSuchFileException e) {
            throw new ContainerGoneException("The init process (host PID " + hostPid + ") of container '"
                    + containerName + "' is gone");
        } catch (IOException e) {
            throw new ProbeException("Cannot read " + netDev + " for container '" + containerName + "': "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean resetHighWaterMark() throws ProbeException {
        try {
            return reader.resetHighWaterMark();
        } catch (IOException e) {
            throw new ProbeException("Cannot reset the memory high-water mark of container '" + containerName
                    + "': " + e.getMessage(), e);
        }
    }

    @Override
    public Duration minimumInterval() {
        return Duration.ofMillis(1);
    }

    @Override
    public String describe() {
        return layout.describe();
    }

    @Override
    public void close() {
        reader.close();
    }
}
