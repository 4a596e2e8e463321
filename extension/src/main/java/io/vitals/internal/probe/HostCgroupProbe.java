package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ProbeKind;
import io.vitals.internal.probe.cgroupfs.CgroupFile;
import io.vitals.internal.probe.cgroupfs.NetDevLines;
import io.vitals.internal.probe.cgroupfs.PairLines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Reads a container's cgroup files straight from the host's {@code /sys/fs/cgroup}: no daemon in the path, and the
 * kernel's exact counters. Works only where the tests run on the engine's host and may read its cgroup tree.
 *
 * <p>Every file is opened once, when the probe opens, and read with positional reads from then on (see
 * {@link CgroupFile}); {@link #close()} closes them all. A removed cgroup makes those reads fail with ENODEV; an
 * exited init process removes {@code /proc/<pid>}, which is checked on every full read, since a descriptor kept
 * open on its net/dev would read on from the namespace it holds.
 *
 * <p>{@link #goneNow()} reads the init process's {@code stat} through a descriptor kept open too (a 2-5 µs
 * {@code pread}): the descriptor holds the process itself, not its PID, so a reaped process answers ESRCH even if
 * the number is reused, and an exiting or zombie one is told by its state (see {@link ProcessState}).
 */
@API(status = INTERNAL, since = "0.1")
public final class HostCgroupProbe implements ResourceProbe {

    private final String containerName;
    private final long hostPid;
    private final Path procDir;
    private final CgroupFile netDev;
    private final CgroupFile stat;
    /** Received and sent bytes, filled by the allocation-free parser; a {@link NetworkReading} is made of them. */
    private final long[] network = new long[2];
    private final CgroupLayout layout;
    /** Asked of every test's result: worked out once from the layout's paths, which do not change. */
    private final String engine;
    private final String description;
    private final CgroupStatsReader reader;
    private final Clock wallClock;
    private final HostFacts facts;
    // the answer of the last reset: whether the kernel keeps a mark this process may reset (see hostShape)
    private volatile boolean peakResettable;

    private HostCgroupProbe(String containerName, long hostPid, Path procDir, CgroupFile netDev, CgroupFile stat,
            CgroupLayout layout, CgroupStatsReader reader, Clock wallClock, HostFacts facts) {
        this.containerName = containerName;
        this.hostPid = hostPid;
        this.procDir = procDir;
        this.netDev = netDev;
        this.stat = stat;
        this.layout = layout;
        this.engine = layout.engine();
        this.description = layout.describe();
        this.reader = reader;
        this.wallClock = wallClock;
        this.facts = facts;
    }

    /** Opens a probe for the container whose init process has host PID {@code hostPid}. */
    public static HostCgroupProbe open(String containerName, long hostPid, CgroupLocator locator, Path procRoot,
            Clock wallClock) throws ProbeException {
        CgroupLayout layout = locator.locate(hostPid);
        Path procDir = procRoot.resolve(Long.toString(hostPid));
        CgroupFile netDev = openProcFile(procDir.resolve("net").resolve("dev"), 1024, containerName, hostPid);
        CgroupFile stat;
        try {
            stat = openProcFile(procDir.resolve("stat"), 512, containerName, hostPid);
        } catch (ProbeException e) {
            netDev.close();
            throw e;
        }
        try {
            return new HostCgroupProbe(containerName, hostPid, procDir, netDev, stat, layout,
                    CgroupStatsReader.forLayout(layout), wallClock, HostFacts.read(procRoot));
        } catch (IOException e) {
            netDev.close();
            stat.close();
            throw new ProbeException("Cannot open the cgroup files of container '" + containerName + "' ("
                    + layout.describe() + "): " + e.getMessage(), e);
        }
    }

    private static CgroupFile openProcFile(Path file, int capacity, String containerName, long hostPid)
            throws ProbeException {
        try {
            return CgroupFile.open(file, capacity);
        } catch (NoSuchFileException e) {
            throw processGone(containerName, hostPid);
        } catch (IOException e) {
            throw new ProbeException("Cannot open " + file + " for container '" + containerName + "': "
                    + e.getMessage(), e);
        }
    }

    private static ContainerGoneException processGone(String containerName, long hostPid) {
        return new ContainerGoneException("The init process (host PID " + hostPid + ") of container '"
                + containerName + "' is gone");
    }

    @Override
    public ProbeKind kind() {
        return layout.unifiedOnly() ? ProbeKind.HOST_CGROUP_V2 : ProbeKind.HOST_CGROUP_V1;
    }

    @Override
    public RawReading read() throws ProbeException {
        try {
            RawReading reading = reader.read(wallClock, readNetwork());
            // Descriptors kept open read on after the files are unlinked (regular files always, procfs for a
            // while): what is gone is decided by the paths, once per full read (two stat calls).
            if (!Files.exists(procDir)) {
                throw processGone(containerName, hostPid);
            }
            if (!reader.exists()) {
                throw new ContainerGoneException("The cgroup of container '" + containerName + "' is gone");
            }
            return reading;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public RawReading readFast(RawReading last) throws ProbeException {
        try {
            return reader.readFast(wallClock, last);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /**
     * Whether the init process has exited, is a zombie, or is exiting; its {@code stat} is read through the
     * descriptor opened with the probe. Docker's own state follows later (it learns of the exit from the shim),
     * so this is the earliest a death can be known.
     */
    @Override
    public Optional<String> goneNow() throws ProbeException {
        ProcessState state;
        synchronized (stat) {
            try {
                stat.read();
                state = ProcessState.parse(stat.bytes(), stat.length(), stat.path());
            } catch (IOException e) {
                if (isNoDevice(e)) {
                    return Optional.of(processGone(containerName, hostPid).getMessage() + " (reaped)");
                }
                throw new ProbeException("Cannot read " + stat.path() + " of container '" + containerName + "': "
                        + e.getMessage(), e);
            }
        }
        if (state.exiting()) {
            return Optional.of("The init process (host PID " + hostPid + ") of container '" + containerName
                    + "' is " + state.describe());
        }
        return Optional.empty();
    }

    private synchronized NetworkReading readNetwork() throws IOException {
        PairLines.read(netDev, NetDevLines::parseNetDev, network);
        return new NetworkReading(network[0], network[1]);
    }

    /** A read error is the container going away when its cgroup or process is gone, else a real error. */
    private ProbeException failure(IOException e) {
        if (!reader.exists() || isNoDevice(e)) {
            return new ContainerGoneException("The cgroup of container '" + containerName + "' is gone ("
                    + e.getMessage() + ")");
        }
        if (!Files.exists(procDir)) {
            return processGone(containerName, hostPid);
        }
        return new ProbeException("Cannot read the cgroup files of container '" + containerName + "': "
                + e.getMessage(), e);
    }

    /** ENODEV: the kernel's answer to a read on a descriptor of a removed cgroup (or of a removed process). */
    private static boolean isNoDevice(IOException e) {
        return e.getMessage() != null && (e.getMessage().contains("No such device")
                || e.getMessage().contains("No such process"));
    }

    @Override
    public boolean resetHighWaterMark() throws ProbeException {
        try {
            peakResettable = reader.resetHighWaterMark();
            return peakResettable;
        } catch (IOException e) {
            throw new ProbeException("Cannot reset the memory high-water mark of container '" + containerName
                    + "': " + e.getMessage(), e);
        }
    }

    @Override
    public HostShape hostShape() {
        return HostShape.ofCgroup(layout.unifiedOnly(), engine, peakResettable, facts);
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        reader.close();
        synchronized (this) {
            netDev.close();
        }
        synchronized (stat) {
            stat.close();
        }
    }
}
