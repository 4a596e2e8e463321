package io.vitals.internal.report.html;

/**
 * The numbers on the charts' axes, without {@code String.format}: a 10,000-test page draws some 450,000 of them,
 * and formatting them took 9 % of the CPU of writing that run's reports (ReportWritingBenchmark). A value exactly
 * half-way between two labels may round the other way than {@code String.format} would; on an axis that is
 * harmless, so these are for axes only, never for a figure.
 */
final class AxisLabels {

    private AxisLabels() {
    }

    /** Seconds along the time axis: "2.5 s" below ten, "12 s" from ten. */
    static String seconds(double seconds) {
        if (seconds < 10) {
            long tenths = Math.round(seconds * 10);
            return tenths / 10 + "." + tenths % 10 + " s";
        }
        return Math.round(seconds) + " s";
    }

    /** A whole number: "42". */
    static String whole(double value) {
        return Long.toString(Math.round(value));
    }
}
