package io.vitals;

/**
 * The median of an array by selection (Hoare's quickselect) instead of a full sort: the same value as sorting and
 * reading the middle, in linear rather than n log n time. Memory growth takes the median of some 20,000 pairwise
 * slopes per timeline, for every report of every test, so the sort was most of a large run's report time.
 */
final class Median {

    private Median() {
    }

    /** The median of {@code values[0..count)}, the mean of the two middle ones when {@code count} is even. */
    static double of(double[] values, int count) {
        int upper = count / 2;
        double high = select(values, count, upper);
        if (count % 2 == 1) {
            return high;
        }
        // After the selection every value left of `upper` is at most `high`: the lower middle is their maximum.
        double low = values[0];
        for (int i = 1; i < upper; i++) {
            low = Math.max(low, values[i]);
        }
        return (low + high) / 2;
    }

    /** The k-th smallest of {@code values[0..count)}; reorders them so that smaller ones lie left of index k. */
    private static double select(double[] values, int count, int k) {
        int left = 0;
        int right = count - 1;
        while (left < right) {
            // median of three as the pivot, so sorted and reversed input (a steady leak) stay linear
            int mid = (left + right) >>> 1;
            double pivot = middleOf(values[left], values[mid], values[right]);
            int i = left;
            int j = right;
            while (i <= j) {
                while (values[i] < pivot) {
                    i++;
                }
                while (values[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    double swap = values[i];
                    values[i] = values[j];
                    values[j] = swap;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                right = j;
            } else if (k >= i) {
                left = i;
            } else {
                return values[k];
            }
        }
        return values[k];
    }

    private static double middleOf(double a, double b, double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
