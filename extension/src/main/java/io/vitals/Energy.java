package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.units.NumberWithUnit;
import io.vitals.internal.units.Preconditions;

import java.util.Map;

import org.apiguardian.api.API;

/**
 * An amount of energy, e.g. a GPU energy budget of {@code 12kJ}. Stored in joules; written in joules (as NVML and
 * DCGM count it, in mJ) or in watt-hours (as power meters and cloud bills do).
 *
 * <pre>{@code
 * Energy budget = Energy.parse("1.5Wh");
 * budget.toJoules();   // 5400.0
 * budget.toString();   // "5.4 kJ"
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Energy implements Comparable<Energy> {

    /** What {@link #parse(String)} accepts, for quoting in error messages; completes the sentence "expected …". */
    public static final String ACCEPTED_FORMS = "a non-negative number followed by J, kJ, MJ, Wh or kWh, e.g. 500J,"
            + " 12kJ or 1.5Wh (1Wh = 3600J)";

    private static final Map<String, Double> JOULES_PER_UNIT = Map.of(
            "J", 1.0,
            "kJ", 1e3,
            "MJ", 1e6,
            "Wh", 3600.0,
            "kWh", 3.6e6);

    private final double joules;

    private Energy(double joules) {
        // Adding 0.0 turns -0.0 into 0.0, so that equals and compareTo see a single zero.
        this.joules = joules + 0.0;
    }

    /**
     * Returns {@code joules} of energy.
     *
     * @param joules the amount in joules, finite and not negative
     * @return the amount
     * @throws IllegalArgumentException if {@code joules} is negative, NaN or infinite
     */
    public static Energy ofJoules(double joules) {
        Preconditions.check(Double.isFinite(joules) && joules >= 0, "energy must be a finite, non-negative number of"
                + " joules: %s", joules);
        return new Energy(joules);
    }

    /**
     * Parses an amount such as {@code "500J"}, {@code "12kJ"}, {@code "1.5Wh"} or {@code "2 kWh"}. Units are
     * case-sensitive, as in SI ({@code mJ} would be millijoules, so it is not read as megajoules).
     *
     * @param text the amount with its unit, as written in a budget
     * @return the amount
     * @throws IllegalArgumentException naming the text and {@link #ACCEPTED_FORMS} if it does not match
     */
    public static Energy parse(String text) {
        Preconditions.notNull(text, "text");
        double joules = NumberWithUnit.parse(text.strip())
                .filter(amount -> JOULES_PER_UNIT.containsKey(amount.unit()))
                .map(amount -> amount.value() * JOULES_PER_UNIT.get(amount.unit())).orElse(Double.NaN);
        // A thousand-digit number parses to infinity; treat it as malformed rather than as a huge budget.
        if (!Double.isFinite(joules)) {
            throw new IllegalArgumentException("Invalid energy '" + text + "': expected " + ACCEPTED_FORMS);
        }
        return new Energy(joules);
    }

    /**
     * {@return this amount in joules}
     */
    public double toJoules() {
        return joules;
    }

    /**
     * {@return this amount in watt-hours (3600 J each)}
     */
    public double toWattHours() {
        return joules / 3600.0;
    }

    /**
     * Whether this amount is strictly larger than {@code other}.
     *
     * @param other the amount to compare with
     * @return {@code true} if this amount is strictly larger
     */
    public boolean isGreaterThan(Energy other) {
        return compareTo(other) > 0;
    }

    @Override
    public int compareTo(Energy other) {
        return Double.compare(joules, other.joules);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Energy energy && Double.compare(joules, energy.joules) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(joules);
    }

    /** One decimal in the largest of J, kJ and MJ that keeps the number at least 1: "500.0 J", "12.0 kJ". */
    @Override
    public String toString() {
        if (joules >= 1e6) {
            return FixedDecimals.format(joules / 1e6, 1) + " MJ";
        }
        if (joules >= 1e3) {
            return FixedDecimals.format(joules / 1e3, 1) + " kJ";
        }
        return FixedDecimals.format(joules, 1) + " J";
    }
}
