package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.FigureModel;
import io.vitals.ResourceUsage;
import io.vitals.SourcedValues;

import org.apiguardian.api.API;

/**
 * The metric model as the public value types see it ({@link FigureModel}): found through
 * {@code META-INF/services/io.vitals.FigureModel}, so that {@code io.vitals} names no type of this package.
 */
@API(status = INTERNAL, since = "0.2")
public final class MetricFigureModel implements FigureModel {

    @Override
    public SourcedValues absent(String reason) {
        return SourcedFigures.absent(reason);
    }

    /** Every descriptor's figure as the reports print it ({@code peakMemory=812.0 MiB}, an absent one –). */
    @Override
    public String describe(ResourceUsage usage) {
        StringBuilder text = new StringBuilder();
        for (Metric metric : Metric.all()) {
            text.append(text.length() == 0 ? "" : ", ").append(metric.key()).append('=')
                    .append(metric.value(usage).stream().mapToObj(metric::format).findFirst().orElse("–"));
        }
        return text.toString();
    }
}
