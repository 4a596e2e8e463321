package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * The extra groups of figures that {@link ReadingSource}s added to one reading, by key. Immutable. A reading
 * without sources carries {@link #NONE}, one shared instance, so the sampler pays nothing for the seam where no
 * source is configured.
 *
 * @param groups every group a source added, available or not
 */
@API(status = INTERNAL, since = "0.1")
public record Extras(Map<ExtraKey<?>, Extra<?>> groups) {

    /** No extra groups: what every base probe's readings carry. */
    public static final Extras NONE = new Extras(Map.of());

    public Extras {
        groups = Map.copyOf(groups);
        for (Map.Entry<ExtraKey<?>, Extra<?>> entry : groups.entrySet()) {
            checkType(entry.getKey(), entry.getValue());
        }
    }

    /**
     * The group under {@code key}; unavailable, with the reason "not measured", where no source added it, so a
     * reader never has to tell a missing key from a missing figure.
     */
    @SuppressWarnings("unchecked") // the constructor checked every value against its key's type
    public <T> Extra<T> get(ExtraKey<T> key) {
        Extra<?> extra = groups.get(Objects.requireNonNull(key, "key"));
        return extra == null ? Extra.unavailable(key.id() + " not measured: no source adds it") : (Extra<T>) extra;
    }

    /** The keys of the groups sources added, available or not. */
    public Set<ExtraKey<?>> keys() {
        return groups.keySet();
    }

    public boolean isEmpty() {
        return groups.isEmpty();
    }

    static void checkType(ExtraKey<?> key, Extra<?> extra) {
        Objects.requireNonNull(extra, "extra");
        if (extra instanceof Extra.Available<?> available && !key.type().isInstance(available.figures())) {
            throw new IllegalArgumentException("extra '" + key.id() + "' must be a " + key.type().getSimpleName()
                    + ", not a " + available.figures().getClass().getSimpleName());
        }
    }
}
