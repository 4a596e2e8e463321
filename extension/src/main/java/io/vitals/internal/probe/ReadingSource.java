package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;

import org.apiguardian.api.API;

/**
 * A further source of figures for a container, stacked on its base probe: the cgroup files or the Engine API give
 * the base groups (CPU, memory, PIDs, I/O, network, pressure), and each source adds its own groups (a GPU source:
 * the GPU's) to the same reading, so that every later step sees one reading per sample.
 *
 * <p>One source serves every container: it is told which one each time. It is asked on every full read (every
 * few hundred milliseconds and at the edges of every measurement window, see the sampler's tiered reads); fast
 * reads in between carry its groups over, as they carry memory.stat over. That suits sources whose figures refresh
 * slowly (NVML averages utilisation over 1/6 s to 1 s) or cost a query each.
 *
 * <p>A source puts every key of {@link #keys()} in every reading: its figures, or
 * {@link RawReading.Builder#unavailable why there are none} ("no GPU visible"), never zeros. A source that throws
 * loses nothing but its own groups for that sample: they are marked unavailable with the error's message, and the
 * base figures are kept.
 */
@API(status = INTERNAL, since = "0.1")
public interface ReadingSource {

    /** A short name for messages ("nvml"), prefixed to the reason when the source fails. */
    String name();

    /** The groups this source adds; no two sources of one probe may share a key. */
    List<ExtraKey<?>> keys();

    /**
     * Adds this source's groups for {@code target} to {@code reading}, which holds the base groups already.
     * Called from the sampler thread and, for window edges, from the test thread.
     *
     * @throws ProbeException when the figures cannot be read for this sample
     */
    void contribute(ContainerTarget target, RawReading.Builder reading) throws ProbeException;

    /**
     * Whether this source has given figures on this host so far: a probe's description names only those, so that
     * a host without the GPU driver is not told its figures came "with nvidia-smi". True unless a source says.
     */
    default boolean answered() {
        return true;
    }
}
