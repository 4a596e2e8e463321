package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.units.NumberWithUnit;
import io.vitals.internal.units.Preconditions;

import org.apiguardian.api.API;

/**
 * A non-negative percentage such as {@code 20%} or {@code 150%}.
 *
 * <p>Values above 100 are valid: for CPU figures, as in {@code docker stats}, {@code 100%} is one full core, so
 * {@code 150%} is one and a half cores.
 *
 * <pre>{@code
 * Percentage headroom = Percentage.parse("20%");
 * headroom.fraction();   // 0.2
 * headroom.toString();   // "20.0%"
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Percentage implements Comparable<Percentage> {

    /**
     * What {@link #parse(String)} accepts, for quoting in error messages; completes the sentence "expected …".
     */
    public static final String ACCEPTED_FORMS = "a non-negative number followed by '%', e.g. 20%, 150% or 12.5%"
            + " (for CPU, 100% is one full core)";

    private final double value;

    private Percentage(double value) {
        this.value = value;
    }

    /**
     * Returns {@code percent} percent; {@code of(20)} is 20%.
     *
     * @param percent the percentage, e.g. 150 for one and a half cores
     * @return the percentage
     * @throws IllegalArgumentException if {@code percent} is negative, NaN or infinite
     */
    public static Percentage of(double percent) {
        Preconditions.check(Double.isFinite(percent) && percent >= 0,
                "percentage must be a finite, non-negative number: %s", percent);
        // Adding 0.0 turns -0.0 into 0.0, so that equals and compareTo see a single zero.
        return new Percentage(percent + 0.0);
    }

    /**
     * Returns the percentage for a fraction; {@code ofFraction(0.2)} is 20%.
     *
     * @param fraction the share, 1.0 being 100%
     * @return the percentage
     * @throws IllegalArgumentException if {@code fraction} is negative, NaN or infinite
     */
    public static Percentage ofFraction(double fraction) {
        Preconditions.check(Double.isFinite(fraction) && fraction >= 0,
                "fraction must be a finite, non-negative number: %s", fraction);
        return of(fraction * 100);
    }

    /**
     * Parses a percentage such as {@code "20%"}, {@code "150%"} or {@code "12.5 %"}.
     *
     * <p>Grammar: a non-negative decimal number ({@code 20}, {@code 12.5}; not {@code .5}, {@code 1.} or
     * exponents), optional whitespace, then a required {@code %}. Surrounding whitespace is ignored.
     *
     * @param text the percentage as written in a budget
     * @return the percentage
     * @throws IllegalArgumentException naming the text and {@link #ACCEPTED_FORMS} if it does not match
     */
    public static Percentage parse(String text) {
        Preconditions.notNull(text, "text");
        double percent = NumberWithUnit.parse(text.strip()).filter(amount -> amount.unit().equals("%"))
                .map(NumberWithUnit::value).orElse(Double.NaN);
        // A thousand-digit number parses to infinity; treat it as malformed rather than as a huge budget.
        if (!Double.isFinite(percent)) {
            throw new IllegalArgumentException("Invalid percentage '" + text + "': expected " + ACCEPTED_FORMS);
        }
        return of(percent);
    }

    /** {@return the percentage itself: 20.0 for 20%} */
    public double value() {
        return value;
    }

    /** {@return the percentage as a fraction: 0.2 for 20%} */
    public double fraction() {
        return value / 100;
    }

    /**
     * Whether this percentage is strictly larger than {@code other}.
     *
     * @param other the percentage to compare with
     * @return {@code true} if this percentage is strictly larger
     */
    public boolean isGreaterThan(Percentage other) {
        return compareTo(other) > 0;
    }

    /**
     * Whether this percentage is strictly smaller than {@code other}.
     *
     * @param other the percentage to compare with
     * @return {@code true} if this percentage is strictly smaller
     */
    public boolean isLessThan(Percentage other) {
        return compareTo(other) < 0;
    }

    /** {@return two decimals, as {@code docker stats} prints CPU and memory percentages: {@code "20.00%"}} */
    public String toDockerString() {
        return FixedDecimals.format(value, 2) + "%";
    }

    @Override
    public int compareTo(Percentage other) {
        return Double.compare(value, other.value);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Percentage && Double.compare(((Percentage) obj).value, value) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(value);
    }

    /** One decimal, e.g. {@code "20.0%"} or {@code "150.0%"}; {@link #parse(String)} reads it back. */
    @Override
    public String toString() {
        return FixedDecimals.format(value, 1) + "%";
    }
}
