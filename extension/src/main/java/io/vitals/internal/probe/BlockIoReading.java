package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Cumulative bytes a container read from and wrote to block devices, summed over its devices.
 *
 * <p>A record rather than the {@code long[]} pair the parsers fill, whose slots are told apart only by a comment.
 * The parsers keep their reused arrays (they allocate nothing per line); this record is made once per full reading
 * from the result.
 *
 * @param readBytes cumulative bytes read
 * @param writeBytes cumulative bytes written
 */
@API(status = INTERNAL, since = "0.1")
public record BlockIoReading(long readBytes, long writeBytes) {

    /** Nothing read or written: a container without a blkio controller or with only a "Total 0" line. */
    public static final BlockIoReading NONE = new BlockIoReading(0, 0);
}
