package io.vitals.internal.regression.stats;

/** The standard normal distribution's upper tail, which the JDK lacks. */
final class Normal {

    private Normal() {
    }

    /**
     * P(Z &gt; z) for a standard normal Z, with a relative error below 1.2e-7 (the Chebyshev fit {@code erfcc} of
     * Numerical Recipes).
     */
    static double upperTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    private static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }
}
