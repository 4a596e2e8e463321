package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Acquisition;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One cell of the table "Exactness by host shape" (docs/metrics.md) as it applied to one container in one test:
 * the figure was exact, sampled at an interval, or unavailable for a reason.
 *
 * @param kind which of the three
 * @param interval the sampling interval, for a sampled figure only
 * @param reason why the host cannot give the figure, one sentence, for an unavailable figure only
 */
@API(status = INTERNAL, since = "0.1")
public record MatrixCell(Kind kind, Optional<Duration> interval, Optional<String> reason) {

    /** The three kinds of cell. */
    public enum Kind {
        EXACT, SAMPLED, UNAVAILABLE;

        /** The name in the JSON reports: {@code exact}, {@code sampled}, {@code unavailable}. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind ofJsonName(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    public MatrixCell {
        Objects.requireNonNull(kind, "kind");
        if (interval.isPresent() != (kind == Kind.SAMPLED) || reason.isPresent() != (kind == Kind.UNAVAILABLE)) {
            throw new IllegalArgumentException("a sampled cell has an interval and an unavailable one a reason, "
                    + "no other: " + kind + " " + interval + " " + reason);
        }
    }

    /** The cell in a few words, as docs/metrics.md's table writes it: "exact", "sampled (50 ms)", "unavailable: …". */
    public String describe() {
        return switch (kind) {
            case EXACT -> "exact";
            case SAMPLED -> "sampled (" + interval.orElseThrow().toMillis() + " ms)";
            case UNAVAILABLE -> "unavailable: " + reason.orElseThrow();
        };
    }

    public static MatrixCell exact() {
        return new MatrixCell(Kind.EXACT, Optional.empty(), Optional.empty());
    }

    public static MatrixCell sampled(Duration interval) {
        return new MatrixCell(Kind.SAMPLED, Optional.of(interval), Optional.empty());
    }

    public static MatrixCell unavailable(String reason) {
        return new MatrixCell(Kind.UNAVAILABLE, Optional.empty(), Optional.of(reason));
    }

    /** The cell of a figure obtained as {@code acquisition}; a trend fitted over samples is as good as its samples. */
    static MatrixCell of(Acquisition acquisition, Duration samplingInterval) {
        return acquisition == Acquisition.EXACT ? exact() : sampled(samplingInterval);
    }
}
