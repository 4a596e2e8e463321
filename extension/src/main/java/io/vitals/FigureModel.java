package io.vitals;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * What the value types of this package need of the metric model, which lives in the internal packages and depends
 * on them: the sourced figures of a usage built without a probe, and every figure of a usage as the reports print
 * it. Found through {@link java.util.ServiceLoader} ({@code META-INF/services/io.vitals.FigureModel}), so that the dependency
 * points from the internal packages to this one. Not for use outside Vitals; it may change in any release.
 */
@API(status = INTERNAL, since = "0.2")
public interface FigureModel {

    /**
     * Sourced figures none of which was read.
     *
     * @param reason why each is missing, as the reports say it
     * @return the figures, each absent for {@code reason}
     */
    SourcedValues absent(String reason);

    /**
     * Every figure of a usage as the reports print it.
     *
     * @param usage the usage to describe
     * @return "key=value" pairs joined by ", ", absent figures as "–"
     */
    String describe(ResourceUsage usage);
}
