package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Cumulative bytes on a container's network interfaces, loopback excluded, summed over its interfaces. A record
 * rather than a {@code long[]} pair, so that received and sent cannot be swapped by position.
 *
 * @param receivedBytes cumulative bytes received
 * @param sentBytes cumulative bytes sent
 */
@API(status = INTERNAL, since = "0.1")
public record NetworkReading(long receivedBytes, long sentBytes) {

    /** No traffic: a container without interfaces of its own, or an empty {@code networks} object. */
    public static final NetworkReading NONE = new NetworkReading(0, 0);
}
