package io.vitals.internal.metric;

import io.vitals.PeakMemory;
import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.units.DurationParser;

/** How each kind of figure was measured, in words, for budget checks and breach messages. */
final class HowMeasured {

    /** Why the kernel's high-water mark, printed beside a memory figure, is not what a budget judges. */
    static final String HIGH_WATER_MARK_NOT_JUDGED =
            "(not judged: it also counts page cache, e.g. of loaded native libraries, so it can be far higher)";

    private HowMeasured() {
    }

    // The budget judges the working set; the mark is shown beside it but counts page cache too, which is why it can
    // be far higher (docs/metrics.md words this the same way).
    static String workingSet(ResourceUsage u) {
        return "working set (MEM USAGE) " + u.peak().describeMethod() + " from " + u.probe().description()
                + u.peakMemoryHighWaterMark().map(mark -> "; kernel high-water mark " + mark + " "
                        + HIGH_WATER_MARK_NOT_JUDGED).orElse("");
    }

    static Acquisition peakMemory(ResourceUsage u) {
        return u.peak().method() == PeakMemory.Method.KERNEL_HIGH_WATER_MARK ? Acquisition.EXACT
                : Acquisition.SAMPLED;
    }

    static String cpuCounter(ResourceUsage u) {
        return "cgroup CPU counter from " + u.probe().description() + " (exact)";
    }

    static String averageCpu(ResourceUsage u) {
        return "CPU time over " + DurationParser.format(u.wallTime()) + " of wall time";
    }

    static String sampled(ResourceUsage u) {
        return "sampled every " + u.timeline().samplingInterval().toMillis() + " ms from " + u.probe().description();
    }

    static String blockCounter(ResourceUsage u) {
        return "block I/O counter from " + u.probe().description()
                + (u.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1 ? " (cgroup v1 misses buffered writes)" : "");
    }

    static String networkCounter(ResourceUsage u) {
        return "interface counters of the container's network namespace";
    }

    // Name the window: monitor.usage() in a test ends at the call, the report at the end of the test, and a ramp
    // followed by a plateau reads steep over the first and flat over the second.
    static String memoryTrend(ResourceUsage u) {
        return "Theil–Sen slope over " + u.timeline().points().size() + " points from 0 s to "
                + DurationParser.format(u.wallTime()) + " of the test";
    }

    static String throttling(ResourceUsage u) {
        return "CFS throttling counter from " + u.probe().description();
    }

    static String wallClock(ResourceUsage u) {
        return "wall-clock time from the first to the last snapshot";
    }
}
