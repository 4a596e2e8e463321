package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * How a figure is compared with a baseline or run history.
 *
 * @param noiseFloor the smallest absolute change worth reporting, in the base unit. Without it a test that reads
 *     4 KiB instead of nothing would "regress" by infinity percent; with it, only changes big enough to matter on a
 *     real machine count.
 * @param byDefault whether the figure is compared under the general tolerance ({@code vitals.tolerance}); a
 *     figure that depends on the machine more than on the code (wall time) is compared only when its own
 *     {@code vitals.tolerance.<key>} is set
 */
@API(status = INTERNAL, since = "0.1")
public record Comparison(double noiseFloor, boolean byDefault) {
}
