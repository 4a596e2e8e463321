package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.internal.metric.Unit;

import java.time.Duration;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Conversions shared by the writers. Printing goes through {@link io.vitals.internal.metric.Metric#format} and
 * {@link Unit#format}, so that a figure reads the same in every report.
 */
@API(status = INTERNAL, since = "0.1")
public final class Figures {

    private Figures() {
    }

    /** Seconds with nanosecond precision, for JSON and Prometheus. */
    public static double seconds(Duration duration) {
        return Unit.seconds(duration);
    }

    /** "1.2 s", "250 ms", "1m 5s": a duration as every report prints it. */
    public static String duration(Duration duration) {
        return Unit.DURATION.format(seconds(duration));
    }

    /**
     * Whether a figure is written as a whole number ("851443712", not "8.51443712E8"): bytes and counts read as
     * integers in every file. Up to 10^15, where a double still holds every integer and its fraction exactly.
     */
    public static boolean isWhole(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15;
    }

    /** Peak over limit in percent, when there is a non-zero limit. */
    public static Optional<Double> percentOfLimit(DataSize value, Optional<DataSize> limit) {
        return limit.filter(l -> l.toBytes() > 0).map(l -> 100.0 * value.toBytes() / l.toBytes());
    }
}
