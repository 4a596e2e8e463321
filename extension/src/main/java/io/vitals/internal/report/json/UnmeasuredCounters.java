package io.vitals.internal.report.json;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.ReportedFigure;

/**
 * Which raw counters of a container's snapshots and timeline {@link ReportedFigure} says were not measured: they are
 * {@code null} there too, as in the usage, rather than a zero that reads as "nothing happened".
 */
record UnmeasuredCounters(boolean blockRead, boolean blockWrite, boolean oomKills) {

    static UnmeasuredCounters of(ResourceUsage usage) {
        return new UnmeasuredCounters(ReportedFigure.of(Metric.BLOCK_READ, usage).isNotMeasured(),
                ReportedFigure.of(Metric.BLOCK_WRITE, usage).isNotMeasured(),
                ReportedFigure.oomKills(usage).isNotMeasured());
    }
}
