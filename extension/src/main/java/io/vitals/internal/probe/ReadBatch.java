package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;

import org.apiguardian.api.API;

/**
 * Reads that one source answers for several containers in a single round trip: the Vitals agent, where each
 * request crosses the engine's attach stream and wakes the agent's JVM. On each tick the sampler hands a batch the
 * members it is about to read, those whose read is a fast one and those whose read is the periodic full one; each
 * member's next {@link ResourceProbe#readFast} or {@link ResourceProbe#readScheduled} then takes its prefetched
 * answer instead of making a round trip of its own. One wake-up a tick rather than one a container is what makes
 * the agent's CPU per container-sample comparable to the host probe's. Window edges call
 * {@link ResourceProbe#read()}, which is never prefetched: an edge reads the container as of the edge.
 */
@API(status = INTERNAL, since = "0.1")
public interface ReadBatch {

    /** A probe's place in a batch: probes whose {@link #batch()} is the same object are prefetched together. */
    interface Member {
        ReadBatch batch();
    }

    /**
     * Fetches, in one round trip, the next fast reading of each of {@code fast} and the next full reading of each
     * of {@code full}. Never throws: a failure (the source gone, one container unreadable) is met again, and
     * reported, by each member's own read.
     */
    void prefetch(List<Member> fast, List<Member> full);
}
