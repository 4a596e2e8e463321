package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * The JUnit resource locks that {@link MeasureResources} takes on the containers a test class shares with others,
 * as a service interface: the implementation lives in the internal packages and is found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.vitals.ContainerLocksProvider}), so that internal code
 * depends on the public API and never the reverse. Not for use outside Vitals; it may change in any release.
 */
@API(status = INTERNAL, since = "0.2")
public interface ContainerLocksProvider extends ResourceLocksProvider {
}
