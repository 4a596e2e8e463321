package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * The figures of one usage as a report saved them, by field name, for a {@link SourceKind} to read its own back
 * (when report directories are merged). A field a file from before the figure lacks reads as empty.
 */
@API(status = INTERNAL, since = "0.1")
public interface SavedFigures {

    /** The figure saved under {@code field}, in its base unit; empty where it is null or absent. */
    OptionalDouble value(String field);

    /** Why the host could not measure the figure saved under {@code field}; empty where none was saved. */
    Optional<String> unavailableReason(String field);

    /** The lane saved under {@code key} (see {@link SourceKind#lanes}); empty where none was saved. */
    default Optional<Lane> lane(String key) {
        return Optional.empty();
    }
}
