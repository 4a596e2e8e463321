package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ProbeKind;

import java.time.Duration;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Reads the figures of one container. One probe is opened per watched container and read from the sampler thread
 * and, for the before/after snapshots, from the test thread; implementations must tolerate that.
 */
@API(status = INTERNAL, since = "0.1")
public interface ResourceProbe extends AutoCloseable {

    ProbeKind kind();

    /** Reads every figure the probe can obtain at this moment. */
    RawReading read() throws ProbeException;

    /**
     * Reads only the counters that move fastest and cost least, carrying every other figure over from {@code last},
     * the previous reading of this probe (by {@link #read()} or by this method). The sampler calls it on most ticks
     * and {@link #read()} on the rest and at the edges of every window, so that counters compared across a window
     * are always fresh. Probes for which a partial read saves nothing read everything.
     */
    default RawReading readFast(RawReading last) throws ProbeException {
        return read();
    }

    /**
     * The sampler's periodic full read on a tick: the figures of {@link #read()}, which a probe in a
     * {@link ReadBatch} may have fetched with its batch at the start of the tick. Only the sampler thread calls
     * it; a window's edges call {@link #read()}, which is always read then.
     */
    default RawReading readScheduled() throws ProbeException {
        return read();
    }

    /**
     * Asks, now and on the calling thread, whether the container has died or is dying, whatever the last reading
     * showed: a window's end asks it, so that a container that died just as the test returned is not taken for
     * alive because its files still read, and the verdict does not depend on when the sampler last looked. Empty
     * while it lives; why it is gone otherwise. Called once per window on a healthy container, so it must stay
     * cheap where reads are cheap. Probes that cannot tell more than their reads answer empty.
     */
    default Optional<String> goneNow() throws ProbeException {
        return Optional.empty();
    }

    /**
     * Restarts the kernel's high-water mark of charged memory, so that {@link MemoryReading#highWaterMarkBytes()}
     * covers only what follows. Returns false where the host keeps no resettable mark.
     */
    boolean resetHighWaterMark() throws ProbeException;

    /**
     * The host shape the figures are measured on (a row of docs/metrics.md's exactness table). Whether the memory
     * mark is resettable is known once {@link #resetHighWaterMark()} has been tried, so ask after opening a window.
     */
    HostShape hostShape();

    /**
     * Where this probe's fast reads can be fetched together with other probes' in one round trip (see
     * {@link ReadBatch}); empty for probes whose reads are cheap one by one.
     */
    default Optional<ReadBatch.Member> batchMember() {
        return Optional.empty();
    }

    /**
     * The shortest interval at which reading makes sense for this probe: 1 ms unless a probe says otherwise, a floor
     * that reading cgroup files on the host and a round trip to the agent through the engine's attach stream both
     * keep up with. Probes whose reads cost more (one Engine API request each) return their own.
     */
    default Duration minimumInterval() {
        return Duration.ofMillis(1);
    }

    /** A short human description of where figures come from, for reports ("cgroup v1 files under /sys/fs/cgroup"). */
    String describe();

    @Override
    void close();
}
