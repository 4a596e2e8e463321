package io.vitals.testing;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.metric.Unit;

import java.util.List;

/**
 * Sourced figures for fixtures, derived from the metric model: every figure {@link Metric#sourced()} declares starts
 * with a plausible value, and a fixture sets only those it checks. A figure added to the model then needs no edit of
 * a fixture; {@code SourcedFigures.Builder.build()} would refuse one a hand-written list forgot.
 */
public final class SourcedFixtures {

    private static final long MIB = 1024L * 1024;

    private SourcedFixtures() {
    }

    /**
     * A builder with every sourced figure set: a size to {@code scale} × (its position + 1) MiB, any other figure to
     * {@code scale} × (its position + 1) × 10.
     */
    public static SourcedFigures.Builder every(double scale) {
        SourcedFigures.Builder builder = SourcedFigures.builder();
        List<Metric> sourced = Metric.sourced();
        for (int i = 0; i < sourced.size(); i++) {
            Metric metric = sourced.get(i);
            builder.set(metric, Math.round(scale * (i + 1) * (metric.unit() == Unit.SIZE ? MIB : 10)));
        }
        return builder;
    }
}
