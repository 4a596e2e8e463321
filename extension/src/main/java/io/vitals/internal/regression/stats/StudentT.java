package io.vitals.internal.regression.stats;

/**
 * Student's t distribution, which the JDK lacks: its CDF for any positive (also fractional) degrees of freedom.
 *
 * <p>Approach: {@code P(|T| > t) = I_x(df/2, 1/2)} with {@code x = df / (df + t^2)}, where {@code I} is the
 * regularized incomplete beta function, evaluated by its continued fraction (modified Lentz's method, as in
 * Numerical Recipes {@code betai}/{@code betacf}) and the Lanczos approximation of ln Γ. Both {@code x} and
 * {@code 1 - x} are formed directly from {@code t}, never one from the other, so neither a tiny p-value (large t)
 * nor one close to 1 (t near 0) loses its digits to cancellation.
 */
@org.apiguardian.api.API(status = org.apiguardian.api.API.Status.INTERNAL, since = "0.1")
public final class StudentT {

    // The continued fraction converges in O(sqrt(max(a, b))) steps; this covers df up to about 10^8.
    private static final int MAX_ITERATIONS = 20_000;
    private static final double EPSILON = 1e-15;
    private static final double TINY = 1e-300;
    // Lanczos coefficients for g = 7, n = 9 (relative error of ln Γ about 1e-15 for positive arguments).
    private static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
            771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7};

    private StudentT() {
    }

    /**
     * The {@code p} quantile of Student's t with {@code df} degrees of freedom: the {@code t} with
     * {@code cdf(t, df) = p}, for the prediction bounds of suggested budgets. Found by bisection on {@link #cdf}, to
     * 1e-10: a budget needs no more, and it keeps one implementation of the distribution.
     */
    public static double quantile(double p, double df) {
        if (!(p > 0 && p < 1) || !(df > 0)) {
            throw new IllegalArgumentException("quantile needs 0 < p < 1 and df > 0: p " + p + ", df " + df);
        }
        double low = -1;
        double high = 1;
        while (cdf(low, df) > p) {
            low *= 2;
        }
        while (cdf(high, df) < p) {
            high *= 2;
        }
        for (int i = 0; i < 200 && high - low > 1e-10; i++) {
            double mid = (low + high) / 2;
            if (cdf(mid, df) < p) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return (low + high) / 2;
    }

    /** P(T &le; t) for T with {@code df} degrees of freedom. */
    static double cdf(double t, double df) {
        double tail = 0.5 * twoSidedP(t, df);
        return t >= 0 ? 1 - tail : tail;
    }

    /** P(|T| &ge; |t|), the two-sided p-value of the statistic {@code t} with {@code df} degrees of freedom. */
    static double twoSidedP(double t, double df) {
        if (!(df > 0) || Double.isInfinite(df)) {
            throw new IllegalArgumentException("degrees of freedom must be positive and finite: " + df);
        }
        if (Double.isNaN(t)) {
            throw new IllegalArgumentException("t must be a number: " + t);
        }
        if (Double.isInfinite(t)) {
            return 0;
        }
        double t2 = t * t;
        return regularizedBeta(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
    }

    /**
     * The regularized incomplete beta function {@code I_x(a, b)}, given {@code x} and {@code y = 1 - x} separately.
     */
    static double regularizedBeta(double x, double y, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (y <= 0) {
            return 1;
        }
        double logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(y);
        // The fraction converges fast for x < (a + 1) / (a + b + 2); beyond, use I_x(a, b) = 1 - I_y(b, a).
        if (x < (a + 1) / (a + b + 2)) {
            return Math.exp(logFront) * continuedFraction(x, a, b) / a;
        }
        return 1 - Math.exp(logFront) * continuedFraction(y, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = nonZero(1 - qab * x / qap);
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= MAX_ITERATIONS; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 / nonZero(1 + aa * d);
            c = nonZero(1 + aa / c);
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 / nonZero(1 + aa * d);
            c = nonZero(1 + aa / c);
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < EPSILON) {
                return h;
            }
        }
        throw new ArithmeticException("the incomplete beta fraction did not converge for x = " + x + ", a = " + a
                + ", b = " + b);
    }

    private static double nonZero(double value) {
        return Math.abs(value) < TINY ? TINY : value;
    }

    /** ln Γ(z) for z &gt; 0. */
    static double logGamma(double z) {
        if (z < 0.5) {
            // reflection: Γ(z) Γ(1 - z) = π / sin(πz)
            return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
        }
        double zm = z - 1;
        double sum = LANCZOS[0];
        for (int i = 1; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (zm + i);
        }
        double t = zm + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (zm + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
