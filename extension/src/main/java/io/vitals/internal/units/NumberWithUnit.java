package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * A budget's number and the unit written after it, {@code "1.5 GiB"}, {@code "12kJ"} or {@code "20%"}: the one
 * number grammar of sizes, energies and percentages, so that a value reads the same whichever figure it is for.
 * Which units exist, and what they are worth, is each value type's own business.
 *
 * @param number the digits as written, e.g. {@code "1.5"}
 * @param unit the unit as written, case kept, e.g. {@code "GiB"}
 */
@API(status = INTERNAL, since = "0.1")
public record NumberWithUnit(String number, String unit) {

    // A leading or trailing dot (".5", "1.") and exponents are rejected: rare in budgets, and usually a typo.
    private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]+|%)");

    /** The number and unit of {@code text}; empty if it is not one. The caller strips surrounding whitespace. */
    public static Optional<NumberWithUnit> parse(String text) {
        Matcher matcher = NUMBER_WITH_UNIT.matcher(text);
        return matcher.matches() ? Optional.of(new NumberWithUnit(matcher.group(1), matcher.group(2)))
                : Optional.empty();
    }

    /** {@return the number exactly} */
    public BigDecimal exact() {
        return new BigDecimal(number);
    }

    /** {@return the number as the nearest double; infinite for a thousand-digit one} */
    public double value() {
        return Double.parseDouble(number);
    }
}
