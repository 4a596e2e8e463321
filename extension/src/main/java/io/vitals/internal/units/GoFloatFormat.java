package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import org.apiguardian.api.API;

/**
 * Go's {@code fmt} verb {@code %.Ng}, so that sizes print exactly as the docker CLI prints them.
 *
 * <p>Approach: a port of {@code strconv.FormatFloat(v, 'g', prec, 64)}. The value is rounded to {@code prec}
 * significant digits (half-even on the exact binary value, as Go's fixed-precision Ryu does), trailing zeros
 * are dropped, and the exponent form is chosen when the decimal exponent is below -4 or at least
 * {@code prec}. Java's {@code %g} differs on every one of these points, hence this class.
 */
@API(status = INTERNAL, since = "0.1")
public final class GoFloatFormat {

    private GoFloatFormat() {
    }

    /**
     * Formats {@code value} like Go's {@code fmt.Sprintf("%.<precision>g", value)}.
     *
     * @param precision the number of significant digits; Go treats 0 as 1
     */
    public static String formatG(double value, int precision) {
        Preconditions.check(precision >= 0, "precision must not be negative: %d", precision);
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        int prec = precision == 0 ? 1 : precision;
        // Go keeps the sign of negative zero ("-0").
        boolean negative = value < 0 || (value == 0 && 1 / value < 0);

        // Decimal digits d[0..nd) and decimal point position dp: value = 0.d[0]d[1]... * 10^dp.
        String digits;
        int dp;
        if (value == 0) {
            digits = "";
            dp = 0;
        } else {
            BigDecimal rounded = new BigDecimal(Math.abs(value))
                .round(new MathContext(prec, RoundingMode.HALF_EVEN))
                .stripTrailingZeros();
            digits = rounded.unscaledValue().toString();
            dp = digits.length() - rounded.scale();
        }
        int nd = digits.length();

        StringBuilder out = new StringBuilder();
        if (negative) {
            out.append('-');
        }
        int eprec = prec;
        if (eprec > nd && nd >= dp) {
            eprec = nd;
        }
        int exp = dp - 1;
        if (exp < -4 || exp >= eprec) {
            appendExponentForm(out, digits, dp, Math.min(prec, nd) - 1);
        } else {
            int p = prec > dp ? nd : prec;
            appendFixedForm(out, digits, dp, Math.max(p - dp, 0));
        }
        return out.toString();
    }

    // strconv.fmtE: d.ddde±dd
    private static void appendExponentForm(StringBuilder out, String digits, int dp, int fractionDigits) {
        int nd = digits.length();
        out.append(nd == 0 ? '0' : digits.charAt(0));
        if (fractionDigits > 0) {
            out.append('.');
            for (int i = 1; i <= fractionDigits; i++) {
                out.append(i < nd ? digits.charAt(i) : '0');
            }
        }
        int exp = nd == 0 ? 0 : dp - 1;
        out.append('e').append(exp < 0 ? '-' : '+');
        exp = Math.abs(exp);
        if (exp < 10) {
            out.append('0');
        }
        out.append(exp);
    }

    // strconv.fmtF: ddd.ddd
    private static void appendFixedForm(StringBuilder out, String digits, int dp, int fractionDigits) {
        int nd = digits.length();
        if (dp > 0) {
            int m = Math.min(nd, dp);
            out.append(digits, 0, m);
            for (; m < dp; m++) {
                out.append('0');
            }
        } else {
            out.append('0');
        }
        if (fractionDigits > 0) {
            out.append('.');
            for (int i = 1; i <= fractionDigits; i++) {
                int j = dp + i - 1;
                out.append(j >= 0 && j < nd ? digits.charAt(j) : '0');
            }
        }
    }
}
