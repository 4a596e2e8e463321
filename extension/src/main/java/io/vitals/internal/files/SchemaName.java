package io.vitals.internal.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.OptionalInt;

import org.apiguardian.api.API;

/**
 * The name a stored file gives its layout in its {@code "schema"} field, e.g. {@code vitals-history/2}: a family
 * and a version. Stored files that users keep across upgrades (the baseline, the history) tell three cases apart
 * when a file's schema is not theirs, since each asks for another remedy: a file of the family that a newer
 * Vitals wrote (run that version: writing it back here would lose what it added), one of an older or unknown
 * version, and something that is no Vitals file of this kind at all.
 *
 * @param family the part before the slash, e.g. {@code vitals-history}
 * @param version the version this Vitals writes, at least 1
 */
@API(status = INTERNAL, since = "0.1")
public record SchemaName(String family, int version) {

    public SchemaName {
        Objects.requireNonNull(family, "family");
        if (version < 1) {
            throw new IllegalArgumentException("a schema version is at least 1, but is " + version);
        }
    }

    /** {@return the name as files write it, e.g. {@code vitals-history/2}} */
    public String text() {
        return family + "/" + version;
    }

    /** Whether {@code schema} names this family, in any version or none, e.g. {@code vitals-history/7}. */
    public boolean isFamilyOf(String schema) {
        return schema.startsWith(family + "/");
    }

    /** Whether {@code schema} names a version of this family above this one: a file a newer Vitals wrote. */
    public boolean isNewerIn(String schema) {
        OptionalInt other = versionOf(schema);
        return other.isPresent() && other.getAsInt() > version;
    }

    /** The N of "family/N"; empty for anything else, a name of another family or a version that is no number. */
    private OptionalInt versionOf(String schema) {
        if (!isFamilyOf(schema)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(schema.substring(family.length() + 1)));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    @Override
    public String toString() {
        return text();
    }
}
