package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.Resource;

import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Decides whether this host can measure a budget's figure at all, so that a budget on a figure nobody counted is
 * never a silent pass. Such a budget is reported as "not measurable here", with the host's shape and the way out;
 * it passes with that mark by default and fails under {@code vitals.strict=true}.
 *
 * <p>Only block I/O is affected today. cgroup v1 charges a buffered write's writeback to whoever flushes the page,
 * not to the container that dirtied it, so a v1 write figure is at best a lower bound; and where the container's
 * storage has no block device the blkio controller accounts nothing at all (this project's CI host counts 0 B for
 * 64 MiB of direct I/O). A zero from v1 or from the Engine API cannot be told apart from "not counted". cgroup v2
 * attributes writeback to the writer's cgroup, so its figures are taken as measured.
 */
@API(status = INTERNAL, since = "0.1")
public final class Measurability {

    private Measurability() {
    }

    /** Why {@code metric} cannot be measured on the host {@code usage} came from; empty when it can. */
    public static Optional<String> reason(Metric metric, ResourceUsage usage) {
        Optional<String> missing = metric.unmeasurableReason(usage);
        if (missing.isPresent()) {
            return Optional.of(metric.key() + " cannot be measured here: " + missing.get());
        }
        if (metric.resource() != Resource.BLOCK_IO) {
            return Optional.empty();
        }
        double counted = metric.read(usage);
        String figure = metric.attribute() + " cannot be measured here: ";
        if (usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1 && metric == Metric.BLOCK_WRITE) {
            return Optional.of(figure + "cgroup v1 does not attribute buffered writeback to the container that wrote"
                    + (counted == 0 ? ", and its blkio controller counted nothing for this container" : "")
                    + "; run on a cgroup v2 host");
        }
        if (counted > 0 || usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V2) {
            return Optional.empty();
        }
        return Optional.of(figure + (usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1
                ? "cgroup v1's blkio controller counted 0 B for this container, which cannot be told apart from I/O "
                        + "it does not account (storage without a block device, buffered I/O)"
                : "the Docker Engine API reported 0 B for this container, which cannot be told apart from an "
                        + "engine or cgroup v1 host that does not account block I/O")
                + "; run on a cgroup v2 host with the host cgroup probe");
    }

    /**
     * The result as judged on this host: unchanged when its figure is measurable; otherwise
     * {@link BudgetStatus#NOT_MEASURABLE}, with the reason as its note, passed unless {@code strict}.
     */
    public static BudgetResult apply(BudgetResult result, ResourceUsage usage, boolean strict) {
        Optional<String> reason = reason(result.metric(), usage);
        if (reason.isEmpty()) {
            return result;
        }
        String note = reason.get() + (strict ? " (" + MeasureResources.STRICT_KEY + "=true fails such a budget)"
                : " (set " + MeasureResources.STRICT_KEY + "=true to fail such a budget)");
        return result.notMeasurable(note, strict);
    }
}
