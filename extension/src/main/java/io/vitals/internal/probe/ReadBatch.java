package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;

import org.apiguardian.api.API;

/**
 * Fast reads that one source answers for several containers in a single round trip: the Vitals agent, where each
 * request crosses the engine's attach stream and wakes the agent's JVM. On each tick the sampler hands a batch the
 * members whose next read is a fast one; each member's next {@link ResourceProbe#readFast} then takes its
 * prefetched answer instead of making a round trip of its own. One wake-up a tick rather than one a container is
 * what makes the agent's CPU per container-sample comparable to the host probe's.
 */
@API(status = INTERNAL, since = "0.1")
public interface ReadBatch {

    /** A probe's place in a batch: probes whose {@link #batch()} is the same object are prefetched together. */
    interface Member {
        ReadBatch batch();
    }

    /**
     * Fetches the next fast reading of each of {@code members} in one round trip. Never throws: a failure (the
     * source gone, one container unreadable) is met again, and reported, by each member's own read.
     */
    void prefetchFast(List<Member> members);
}
