package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One extra group of figures in one reading: either its values, or why there are none. "Not available" is a state
 * of its own, never a zero: a machine with no GPU visible must read "no GPU visible" in every report, and a GPU
 * query that failed for one sample must not read as an idle GPU.
 *
 * @param <T> the group's record
 */
@API(status = INTERNAL, since = "0.1")
public sealed interface Extra<T> {

    static <T> Extra<T> of(T value) {
        return new Available<>(value);
    }

    static <T> Extra<T> unavailable(String reason) {
        return new Unavailable<>(reason);
    }

    /** The group's figures, empty when it is unavailable. */
    Optional<T> value();

    /** Why the group is unavailable, empty when it is available. */
    Optional<String> reason();

    default boolean isAvailable() {
        return value().isPresent();
    }

    /** The figures a source read for this reading. */
    record Available<T>(T figures) implements Extra<T> {

        public Available {
            Objects.requireNonNull(figures, "figures");
        }

        @Override
        public Optional<T> value() {
            return Optional.of(figures);
        }

        @Override
        public Optional<String> reason() {
            return Optional.empty();
        }
    }

    /**
     * No figures in this reading, and why: the source failed for this sample ("nvidia-smi timed out"), has
     * nothing to measure ("no GPU visible"), or no source adds the group at all.
     */
    record Unavailable<T>(String why) implements Extra<T> {

        public Unavailable {
            Objects.requireNonNull(why, "why");
        }

        @Override
        public Optional<T> value() {
            return Optional.empty();
        }

        @Override
        public Optional<String> reason() {
            return Optional.of(why);
        }
    }
}
