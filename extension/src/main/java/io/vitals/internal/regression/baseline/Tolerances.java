package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.Percentage;
import io.vitals.internal.metric.Metric;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * How far each metric may move from its baseline before it is reported; a metric without one is not compared.
 *
 * @param byMetric the tolerance of each compared metric, empty where it has none
 */
@API(status = INTERNAL, since = "0.1")
public record Tolerances(Map<Metric, Optional<Percentage>> byMetric) {

    /** Keeps an entry for every compared metric, empty where none was given, so equal settings compare equal. */
    public Tolerances {
        EnumMap<Metric, Optional<Percentage>> copy = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.compared()) {
            copy.put(metric, byMetric.getOrDefault(metric, Optional.empty()));
        }
        byMetric = Collections.unmodifiableMap(copy);
    }

    /** The same tolerance for every metric. */
    public static Tolerances uniform(Percentage tolerance) {
        Map<Metric, Optional<Percentage>> map = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.compared()) {
            map.put(metric, Optional.of(tolerance));
        }
        return new Tolerances(map);
    }

    /** The tolerance of {@code metric}; empty when it is not compared. */
    public Optional<Percentage> of(Metric metric) {
        return byMetric.getOrDefault(metric, Optional.empty());
    }

    /** The map alone, as the settings have always printed it. */
    @Override
    public String toString() {
        return byMetric.toString();
    }
}
