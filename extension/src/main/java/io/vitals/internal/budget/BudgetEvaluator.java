package io.vitals.internal.budget;

import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.report.BudgetCheck;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Compares one figure of a usage with its budget, and words the outcome the same way for a
 * {@code @ResourceBudget} breach and a failed assertion.
 */
public final class BudgetEvaluator {

    /**
     * Relative margin under which a sampled peak is flagged as uncertain: a spike shorter than the sampling
     * interval can be missed, so a peak a few percent under its budget may in truth have crossed it.
     */
    private static final double SAMPLING_UNCERTAINTY_PERCENT = 5.0;

    /** Why the kernel's high-water mark, printed beside a memory figure, is not what a budget judges. */
    public static final String HIGH_WATER_MARK_NOT_JUDGED =
            "(not judged: it also counts page cache, e.g. of loaded native libraries, so it can be far higher)";

    private BudgetEvaluator() {
    }

    public static BudgetCheck evaluate(Limit limit, ResourceUsage usage) {
        Metric metric = limit.metric();
        double actual = metric.read(usage);
        if (Double.isNaN(actual)) {
            return new BudgetCheck(metric.attribute(), limit.text(), limit.value(), "unknown", actual, false,
                    OptionalDouble.empty(), method(metric, usage), Optional.empty(),
                    Optional.of(unknownReason(metric)));
        }
        boolean passed = metric.isMinimum() ? actual >= limit.value() : actual <= limit.value();
        // one sign for every direction: negative is room to spare, positive is the breach side, for a floor
        // (headroom) as for a ceiling
        double over = metric.isMinimum() ? limit.value() - actual : actual - limit.value();
        OptionalDouble margin = limit.value() == 0 ? OptionalDouble.empty()
                : OptionalDouble.of(100.0 * over / limit.value());
        return new BudgetCheck(metric.attribute(), limit.text(), limit.value(), metric.unit().format(actual), actual,
                passed, margin, method(metric, usage), at(metric, usage), note(metric, usage, passed, margin));
    }

    /**
     * One line for a breach, e.g. {@code peak memory 1.7 GiB exceeds the budget of 1.5GiB by 204.8 MiB
     * (+13.3%), reached at 12.4 s; limit 2.0 GiB; sampled every 50 ms}.
     */
    public static String describeBreach(BudgetCheck check, ResourceUsage usage) {
        Metric metric = Metric.byAttribute(check.attribute()).orElseThrow();
        StringBuilder line = new StringBuilder(metric.label()).append(' ');
        if (Double.isNaN(check.actualValue()) || Measurability.isNotMeasurable(check)) {
            return line.append("could not be checked against the budget of ").append(check.limit()).append(": ")
                    .append(check.note().orElse("unknown")).toString();
        }
        line.append(check.actual());
        double excess = Math.abs(check.actualValue() - check.limitValue());
        line.append(metric.isMinimum() ? " is below the budget of " : " exceeds the budget of ")
                .append(check.limit()).append(" by ").append(metric.unit().format(excess));
        check.marginPercent().ifPresent(margin -> line.append(String.format(" (%+.1f%%)", margin)));
        check.at().ifPresent(at -> line.append(", reached at ").append(DurationParser.format(at)));
        if (metric == Metric.PEAK_MEMORY || metric == Metric.MEMORY_HEADROOM) {
            line.append("; limit ").append(usage.memoryLimit().map(Object::toString).orElse("none"));
        }
        line.append("; ").append(check.method());
        check.note().ifPresent(note -> line.append("; ").append(note));
        Contention.explain(metric, usage).ifPresent(starved -> line.append("; ").append(starved));
        return line.toString();
    }

    private static String unknownReason(Metric metric) {
        return metric == Metric.MEMORY_HEADROOM ? "the container has no memory limit, so it has no headroom"
                : "the probe could not measure it";
    }

    private static Optional<Duration> at(Metric metric, ResourceUsage usage) {
        return metric == Metric.PEAK_MEMORY || metric == Metric.MEMORY_HEADROOM ? Optional.of(usage.peak().at())
                : Optional.empty();
    }

    private static Optional<String> note(Metric metric, ResourceUsage usage, boolean passed, OptionalDouble margin) {
        boolean sampled = metric == Metric.PEAK_MEMORY || metric == Metric.MEMORY_HEADROOM
                || metric == Metric.PEAK_PIDS;
        if (!sampled || margin.isEmpty()) {
            return Optional.empty();
        }
        if (passed && Math.abs(margin.getAsDouble()) < SAMPLING_UNCERTAINTY_PERCENT) {
            return Optional.of("within " + SAMPLING_UNCERTAINTY_PERCENT + "% of the budget: a spike shorter than "
                    + "the sampling interval could have crossed it unseen");
        }
        return Optional.empty();
    }

    private static String method(Metric metric, ResourceUsage usage) {
        String probe = usage.probe().description();
        return switch (metric) {
            // the budget judges the working set; the mark is shown beside it but counts page cache too, which is
            // why it can be far higher (docs/metrics.md words this the same way)
            case PEAK_MEMORY, MEMORY_HEADROOM -> "working set (MEM USAGE) " + usage.peak().describeMethod()
                    + " from " + probe + usage.peakMemoryHighWaterMark().map(mark -> "; kernel high-water mark "
                            + mark + " " + HIGH_WATER_MARK_NOT_JUDGED).orElse("");
            case CPU_TIME -> "cgroup CPU counter from " + probe + " (exact)";
            case AVERAGE_CPU -> "CPU time over " + DurationParser.format(usage.wallTime()) + " of wall time";
            case PEAK_PIDS -> "sampled every " + usage.timeline().samplingInterval().toMillis() + " ms from "
                    + probe;
            case BLOCK_READ, BLOCK_WRITE -> "block I/O counter from " + probe
                    + (usage.probe() == ProbeKind.HOST_CGROUP_V1 ? " (cgroup v1 misses buffered writes)" : "");
            case NETWORK_RECEIVED, NETWORK_SENT -> "interface counters of the container's network namespace";
            // name the window: monitor.usage() in a test ends at the call, the report at the end of the test, and a
            // ramp followed by a plateau reads steep over the first and flat over the second
            case MEMORY_GROWTH -> "Theil–Sen slope over " + usage.timeline().points().size() + " points from 0 s to "
                    + DurationParser.format(usage.wallTime()) + " of the test";
            case THROTTLED_TIME -> "CFS throttling counter from " + probe;
        };
    }
}
