package io.vitals;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The points of a {@link io.vitals.Timeline}: an immutable list that works out its memory growth once, on first
 * use, the way {@link String} caches its hash. The Theil–Sen slope takes some 45,000 pairwise slopes and a median
 * per timeline, and a run's report prints it for every container in six formats (the test's JSON, the run index,
 * the HTML page, summary.md, vitals.prom, the run history): computed six times it was 60 % of the report step's CPU
 * time at 10,000 tests (docs/benchmarks.md). The slope depends on the points alone, so the cache cannot go stale.
 */
final class TimelinePoints extends AbstractList<TimelinePoint> implements RandomAccess {

    private final TimelinePoint[] points;
    /** Racy single check, as String.hash: two threads may both compute it, and both get the same value. */
    private volatile DataRate memoryGrowth;

    private TimelinePoints(TimelinePoint[] points) {
        this.points = points;
    }

    /** An immutable copy of {@code points} (the list itself, when it already is one); null points are refused. */
    public static List<TimelinePoint> copyOf(List<TimelinePoint> points) {
        if (points instanceof TimelinePoints immutable) {
            return immutable;
        }
        TimelinePoint[] copy = points.toArray(TimelinePoint[]::new);
        for (TimelinePoint point : copy) {
            Objects.requireNonNull(point, "a timeline point");
        }
        return new TimelinePoints(copy);
    }

    /** {@link MemoryGrowth#of} of these points, computed on the first call. */
    DataRate memoryGrowth() {
        DataRate growth = memoryGrowth;
        if (growth == null) {
            growth = MemoryGrowth.fit(this);
            memoryGrowth = growth;
        }
        return growth;
    }

    @Override
    public TimelinePoint get(int index) {
        return points[index];
    }

    @Override
    public int size() {
        return points.length;
    }
}
