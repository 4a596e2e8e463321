package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Metric;

import java.util.Collection;
import java.util.List;

import org.apiguardian.api.API;

/**
 * Which figures a table of some containers shows. A figure none of them has (GPU figures where no container used a
 * GPU, a high-water mark the engine does not give) would fill its column with "no GPU visible" or dashes in every
 * row and push the figures that matter off the screen, so such a column is left out, unless a container has a
 * budget on it, whose cell then says why it could not be judged. The per-test JSON, the run index and
 * vitals.prom keep every figure, with the reason where one is missing.
 */
@API(status = INTERNAL, since = "0.1")
public final class ShownFigures {

    private ShownFigures() {
    }

    /**
     * The figures of {@code candidates}, in their order, that at least one of {@code containers} has or budgets;
     * all of them when there are no containers (a table of tests that failed before measuring keeps its shape).
     */
    public static List<Metric> of(List<Metric> candidates, Collection<ContainerResult> containers) {
        if (containers.isEmpty()) {
            return candidates;
        }
        return candidates.stream().filter(metric -> containers.stream().anyMatch(c -> has(metric, c))).toList();
    }

    private static boolean has(Metric metric, ContainerResult container) {
        return !Double.isNaN(metric.read(container.usage()))
                || container.budgets().stream().anyMatch(b -> b.metric() == metric);
    }
}
