package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apiguardian.api.API;

/**
 * The Mann–Whitney U test (Wilcoxon rank-sum), two-sided: does one sample tend to hold larger values than the other?
 * It assumes no distribution, which suits resource figures: CPU time under contention is skewed, with a long tail.
 *
 * <p>Approach: without ties and with at most {@value #EXACT_LIMIT} values in all, the p-value is exact, from the
 * distribution of U counted by the recurrence {@code f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)}. With ties or more
 * values it comes from the normal approximation with the tie-corrected variance and a continuity correction, as in
 * R's {@code wilcox.test(exact = FALSE, correct = TRUE)} and SciPy's {@code mannwhitneyu(method="asymptotic")}.
 */
@API(status = INTERNAL, since = "0.1")
public final class MannWhitney {

    /** Up to this many values in all (and no ties) the p-value is exact. */
    public static final int EXACT_LIMIT = 50;

    private MannWhitney() {
    }

    /**
     * The result of one test.
     *
     * @param u the U statistic of the first sample: the number of pairs (x, y) with x &gt; y, ties counting half
     * @param p the two-sided p-value
     * @param exact whether {@code p} is exact rather than the normal approximation
     */
    public record Result(double u, double p, boolean exact) {
    }

    /** Tests {@code x} against {@code y}; both need at least one value. */
    public static Result test(List<Double> x, List<Double> y) {
        int m = x.size();
        int n = y.size();
        if (m == 0 || n == 0) {
            throw new IllegalArgumentException("Mann–Whitney needs values in both samples: " + m + " and " + n);
        }
        List<double[]> all = new ArrayList<>(m + n);
        x.forEach(v -> all.add(new double[] {v, 0}));
        y.forEach(v -> all.add(new double[] {v, 1}));
        all.sort(Comparator.comparingDouble(a -> a[0]));
        double rankSumX = 0;
        double tieTerm = 0;
        boolean ties = false;
        for (int i = 0; i < all.size();) {
            int j = i;
            while (j + 1 < all.size() && all.get(j + 1)[0] == all.get(i)[0]) {
                j++;
            }
            double rank = (i + j) / 2.0 + 1;
            int t = j - i + 1;
            if (t > 1) {
                ties = true;
                tieTerm += (double) t * t * t - t;
            }
            for (int k = i; k <= j; k++) {
                if (all.get(k)[1] == 0) {
                    rankSumX += rank;
                }
            }
            i = j + 1;
        }
        double u = rankSumX - m * (m + 1) / 2.0;
        if (!ties && m + n <= EXACT_LIMIT) {
            return new Result(u, exactP(m, n, Math.round(u)), true);
        }
        return new Result(u, normalP(m, n, u, tieTerm), false);
    }

    private static double exactP(int m, int n, long u) {
        int max = m * n;
        // counts[a][b][k]: number of arrangements of a x-values and b y-values with U = k; rolled over a.
        double[][] previous = new double[n + 1][];
        for (int b = 0; b <= n; b++) {
            previous[b] = new double[max + 1];
            previous[b][0] = 1; // a = 0: U is 0 in exactly one way
        }
        for (int a = 1; a <= m; a++) {
            double[][] current = new double[n + 1][];
            current[0] = new double[max + 1];
            current[0][0] = 1;
            for (int b = 1; b <= n; b++) {
                current[b] = new double[max + 1];
                for (int k = 0; k <= a * b; k++) {
                    // the largest value is an x (beats all b y-values) or a y
                    double withX = k - b >= 0 ? previous[b][k - b] : 0;
                    current[b][k] = withX + current[b - 1][k];
                }
            }
            previous = current;
        }
        double[] counts = previous[n];
        double total = 0;
        double atMost = 0;
        double atLeast = 0;
        for (int k = 0; k <= max; k++) {
            total += counts[k];
            if (k <= u) {
                atMost += counts[k];
            }
            if (k >= u) {
                atLeast += counts[k];
            }
        }
        return Math.min(1.0, 2 * Math.min(atMost, atLeast) / total);
    }

    private static double normalP(int m, int n, double u, double tieTerm) {
        double total = m + n;
        double mean = m * (double) n / 2;
        double variance = m * (double) n / 12 * ((total + 1) - tieTerm / (total * (total - 1)));
        double distance = Math.abs(u - mean);
        if (variance <= 0) {
            // every value equal: nothing to tell the samples apart
            return 1.0;
        }
        double z = Math.max(0, distance - 0.5) / Math.sqrt(variance);
        return Math.min(1.0, 2 * Normal.upperTail(z));
    }
}
