package io.vitals.internal.report;

import io.vitals.DataSize;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** Formatting shared by the writers, so that a figure reads the same in every report. */
public final class Figures {

    private Figures() {
    }

    /** Seconds with nanosecond precision, for JSON and Prometheus. */
    public static double seconds(Duration duration) {
        return duration.getSeconds() + duration.getNano() / 1e9;
    }

    /** "0.250 s", "12.3 s", "1 m 05 s". */
    public static String seconds(double seconds) {
        if (seconds < 10) {
            return String.format(Locale.ROOT, "%.3f s", seconds);
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        long whole = Math.round(seconds);
        return String.format(Locale.ROOT, "%d m %02d s", whole / 60, whole % 60);
    }

    public static String duration(Duration duration) {
        return seconds(seconds(duration));
    }

    /** "45.2 %". */
    public static String percent(double percent) {
        return String.format(Locale.ROOT, "%.1f %%", percent);
    }

    /** "812.0 MiB / 1.0 GiB", or "812.0 MiB / none". */
    public static String ofLimit(DataSize value, Optional<DataSize> limit) {
        return value + " / " + limit.map(DataSize::toString).orElse("none");
    }

    /** Peak over limit in percent, when there is a non-zero limit. */
    public static Optional<Double> percentOfLimit(DataSize value, Optional<DataSize> limit) {
        return limit.filter(l -> l.toBytes() > 0).map(l -> 100.0 * value.toBytes() / l.toBytes());
    }
}
