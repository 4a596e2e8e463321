package io.vitals.internal.apimarks;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Fixture for {@code ApiMarksTests}: internal, yet marked as public API. */
@API(status = EXPERIMENTAL, since = "0.1")
public interface MarkedExperimental {
}
