package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;

import org.apiguardian.api.API;

/**
 * Time a container's tasks spent stalled on one resource (Linux pressure-stall information).
 *
 * @param some time in which at least one task was stalled: for CPU, time waiting for a core (a quota or a noisy
 *     neighbour); for memory, time spent in reclaim; for I/O, time waiting on the disk
 * @param full time in which every non-idle task was stalled at once
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record PressureStall(Duration some, Duration full) {

    /**
     * Checks that both times are given.
     *
     * @param some time in which at least one task was stalled: for CPU, time waiting for a core (a quota
     *     or a noisy neighbour); for memory, time spent in reclaim; for I/O, time waiting on the disk
     * @param full time in which every non-idle task was stalled at once
     */
    public PressureStall {
        Objects.requireNonNull(some, "some");
        Objects.requireNonNull(full, "full");
    }
}
