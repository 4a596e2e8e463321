package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * The tasks (processes and threads) in a container.
 *
 * @param current tasks in the container now
 * @param limit the limit on tasks, empty when unlimited
 */
@API(status = INTERNAL, since = "0.1")
public record PidsReading(long current, OptionalLong limit) {

    public PidsReading {
        Objects.requireNonNull(limit, "limit");
    }

    /** The same limit with a fresh count: what a fast (tiered) read refreshes. */
    public PidsReading withCurrent(long current) {
        return current == this.current ? this : new PidsReading(current, limit);
    }
}
