package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.PressureStall;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Says when a container was measurably starved of CPU, for the breach of a figure that contention inflates.
 *
 * <p>Approach: some figures depend on the workload alone (a deterministic allocation's peak, OOM kills, PIDs,
 * bytes written); others grow when the container competes for cores: CPU time (spinning thread pools, cache and
 * hypervisor contention — the example suite's TensorFlow jobs used up to 3x the CPU time of a quiet run next to
 * a busy neighbour), average CPU and anything per second. When such a budget breaks while the kernel says the
 * container waited for a core (CPU pressure, "some") or was throttled for a sizeable share of the window, the
 * breach may be the machine's rather than the code's, and the message says so with the figures.
 */
@API(status = INTERNAL, since = "0.1")
public final class Contention {

    /** Share of the wall time stalled or throttled from which a container counts as starved. */
    static final double STARVED_SHARE = 0.10;

    private Contention() {
    }

    /** True for figures that grow or shrink with contention for cores rather than with the workload alone. */
    public static boolean isSensitive(Metric metric) {
        return metric.isContentionSensitive();
    }

    /**
     * A clause for a breach of a contention-sensitive figure when the container was starved, e.g. "the container
     * was starved of CPU: it waited for a core 46% of its 11.3 s (CPU pressure 5.2 s); CPU time depends on
     * contention as well as on the code, so this breach may be the machine's, not the code's".
     */
    public static Optional<String> explain(Metric metric, ResourceUsage usage) {
        if (!isSensitive(metric) || usage.wallTime().isZero()) {
            return Optional.empty();
        }
        double wall = usage.wallTime().toNanos();
        Duration waited = usage.pressureStallCpu().map(PressureStall::some).orElse(Duration.ZERO);
        double waitedShare = waited.toNanos() / wall;
        double throttledShare = usage.throttledTime().toNanos() / wall;
        if (waitedShare < STARVED_SHARE && throttledShare < STARVED_SHARE) {
            return Optional.empty();
        }
        List<String> signs = new ArrayList<>();
        if (waitedShare >= STARVED_SHARE) {
            signs.add(String.format(Locale.ROOT, "waited for a core %.0f%% of its %s (CPU pressure %s)",
                    100 * waitedShare, DurationParser.format(usage.wallTime()), DurationParser.format(waited)));
        }
        if (throttledShare >= STARVED_SHARE) {
            signs.add(String.format(Locale.ROOT, "was throttled %.0f%% of its %s (%s)", 100 * throttledShare,
                    DurationParser.format(usage.wallTime()), DurationParser.format(usage.throttledTime())));
        }
        return Optional.of("the container was starved of CPU: it " + String.join(" and ", signs) + "; "
                + metric.label() + " depends on contention as well as on the code, so this breach may be the"
                + " machine's, not the code's");
    }
}
