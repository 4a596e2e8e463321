package io.vitals.internal.sampling;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The test a measurement window belongs to, as a report names it. A test passes the same owner to each of its
 * windows, and windows of one owner never count as overlapping each other (two fields may hold one container).
 *
 * @param displayName JUnit's display name of the test
 * @param className the test class (binary name)
 */
@API(status = INTERNAL, since = "0.1")
public record WindowOwner(String displayName, String className) {

    /** An owner for a window opened outside a test (benchmarks, probe tests): one of its own. */
    public static WindowOwner unnamed() {
        return new WindowOwner("(unnamed window)", "");
    }
}
