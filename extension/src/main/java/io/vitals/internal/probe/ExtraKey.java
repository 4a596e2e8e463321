package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;

import org.apiguardian.api.API;

/**
 * Names a group of figures that a {@link ReadingSource} adds to a container's readings beyond the base groups
 * (CPU, memory, PIDs, block I/O, network, pressure) every probe fills: the GPU's figures, for instance. The type
 * makes {@link RawReading#extra(ExtraKey)} return the group's own record, so a reader of the figures needs no cast
 * and a source cannot put a figure of the wrong type under the key.
 *
 * <p>Keys are values: two keys with the same id and type are the same key. Declare each as a constant next to
 * its group's record.
 *
 * @param id a short stable name for reports and messages ("gpu")
 * @param type the record the group's figures come in
 * @param <T> that record's type
 */
@API(status = INTERNAL, since = "0.1")
public record ExtraKey<T>(String id, Class<T> type) {

    public ExtraKey {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        if (id.isBlank()) {
            throw new IllegalArgumentException("extra key id must not be blank: '" + id + "'");
        }
    }

    public static <T> ExtraKey<T> of(String id, Class<T> type) {
        return new ExtraKey<>(id, type);
    }

    @Override
    public String toString() {
        return id;
    }
}
