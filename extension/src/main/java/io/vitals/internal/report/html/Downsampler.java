package io.vitals.internal.report.html;

import java.util.Arrays;

/**
 * Thins a series for drawing: the points are cut into buckets and each bucket keeps its lowest and its highest
 * point, in time order. Unlike averaging or picking every n-th point, a short spike (the peak a budget is about)
 * always survives.
 */
final class Downsampler {

    private Downsampler() {
    }

    /** Indices of at most {@code maxPoints} points of {@code y} (at least 2), first and last included. */
    static int[] indices(double[] y, int maxPoints) {
        int n = y.length;
        if (n <= maxPoints) {
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int buckets = Math.max(1, (maxPoints - 2) / 2);
        int[] out = new int[buckets * 2 + 2];
        int count = 0;
        out[count++] = 0;
        double size = (double) (n - 2) / buckets;
        for (int b = 0; b < buckets; b++) {
            int from = 1 + (int) (b * size);
            int to = Math.min(n - 1, 1 + (int) ((b + 1) * size));
            if (from >= to) {
                continue;
            }
            int min = from;
            int max = from;
            for (int i = from + 1; i < to; i++) {
                if (y[i] < y[min]) {
                    min = i;
                }
                if (y[i] > y[max]) {
                    max = i;
                }
            }
            out[count++] = Math.min(min, max);
            if (min != max) {
                out[count++] = Math.max(min, max);
            }
        }
        out[count++] = n - 1;
        return Arrays.copyOf(out, count);
    }
}
