package io.vitals;

import java.util.ArrayList;
import java.util.List;

/**
 * The slope of memory over time by the Theil–Sen estimator: the median of the slopes between every pair of points.
 * Unlike a least-squares fit, a single spike or a garbage collector's saw-tooth barely moves it, so a steady leak
 * stands out while a one-off allocation does not. Timelines are thinned to at most {@value #MAX_POINTS} points
 * first, which keeps the pairwise step cheap (about 45,000 pairs).
 */
final class MemoryGrowth {

    static final int MAX_POINTS = 300;

    private MemoryGrowth() {
    }

    /** The slope of {@code timeline}; a {@link TimelinePoints} list computes it once and keeps it. */
    public static DataRate of(List<TimelinePoint> timeline) {
        return timeline instanceof TimelinePoints points ? points.memoryGrowth() : fit(timeline);
    }

    static DataRate fit(List<TimelinePoint> timeline) {
        List<TimelinePoint> points = thin(timeline);
        int n = points.size();
        if (n < 2) {
            return DataRate.ofBytesPerSecond(0);
        }
        // read each point once, not once per pair
        long[] nanos = new long[n];
        long[] bytes = new long[n];
        for (int i = 0; i < n; i++) {
            nanos[i] = points.get(i).offset().toNanos();
            bytes[i] = points.get(i).memory().toBytes();
        }
        double[] slopes = new double[n * (n - 1) / 2];
        int count = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double seconds = (nanos[j] - nanos[i]) / 1e9;
                if (seconds > 0) {
                    slopes[count++] = (bytes[j] - bytes[i]) / seconds;
                }
            }
        }
        if (count == 0) {
            return DataRate.ofBytesPerSecond(0);
        }
        return DataRate.ofBytesPerSecond(Median.of(slopes, count));
    }

    private static List<TimelinePoint> thin(List<TimelinePoint> timeline) {
        if (timeline.size() <= MAX_POINTS) {
            return timeline;
        }
        List<TimelinePoint> thinned = new ArrayList<>(MAX_POINTS);
        double step = (double) (timeline.size() - 1) / (MAX_POINTS - 1);
        for (int i = 0; i < MAX_POINTS; i++) {
            thinned.add(timeline.get((int) Math.round(i * step)));
        }
        return thinned;
    }
}
