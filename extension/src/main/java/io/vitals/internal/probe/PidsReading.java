package io.vitals.internal.probe;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The tasks (processes and threads) in a container.
 *
 * @param current tasks in the container now
 * @param limit the limit on tasks, empty when unlimited
 */
public record PidsReading(long current, OptionalLong limit) {

    public PidsReading {
        Objects.requireNonNull(limit, "limit");
    }

    /** The same limit with a fresh count: what a fast (tiered) read refreshes. */
    public PidsReading withCurrent(long current) {
        return current == this.current ? this : new PidsReading(current, limit);
    }
}
