package io.vitals.apimarks;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** Fixture for {@code ApiMarksTests}: a public top-level type outside the internal package, marked. */
@API(status = STABLE, since = "0.1")
public final class MarkedPublic {

    private MarkedPublic() {
    }
}
