package io.vitals.internal.apimarks;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** Fixture for {@code ApiMarksTests}: marked as it should be, with one nested type that widens its status. */
@API(status = INTERNAL, since = "0.1")
public final class MarkedInternal {

    /** Covered by the enclosing type's mark. */
    public static final class Covered {
    }

    /** Claims more than the package allows. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public static final class Widened {
    }

    private MarkedInternal() {
    }
}
