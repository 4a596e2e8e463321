package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The figures of a {@link ResourceUsage} that the metric model declares a source for (memory.stat keys and
 * single-value files), as the usage holds them: it reads them by key, the metric model (which implements this) by
 * its own descriptors, each with why it is missing where it is. Declared here so that the public API names no
 * internal type. Not for use outside Vitals; it may change in any release.
 */
@API(status = INTERNAL, since = "0.2")
public interface SourcedValues {

    /**
     * One figure, by the name the reports give it.
     *
     * @param key the figure's name, e.g. "majorPageFaults"
     * @return its value, NaN where it was not read
     */
    double read(String key);
}
