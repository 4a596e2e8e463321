package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apiguardian.api.API;

/**
 * Prints byte counts: in Vitals' own binary form ({@code "1.5 GiB"}, which {@code DataSize.parse} reads back), and
 * as {@code docker stats} prints them, so that figures can be compared with its columns side by side.
 */
@API(status = INTERNAL, since = "0.1")
public final class DataSizeFormat {

    private static final String[] BINARY_UNITS = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    // below it, ten times a whole byte count and the half unit added for rounding fit in a long
    private static final double WHOLE_BYTES_EXACT = 1e17;

    // go-units' binaryAbbrs and decimalAbbrs, including the units a long can never reach, to stay a faithful port.
    private static final String[] DOCKER_BINARY_UNITS = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB" };
    private static final String[] DOCKER_DECIMAL_UNITS = { "B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB" };

    private DataSizeFormat() {
    }

    /**
     * A possibly fractional or negative byte count in binary units: whole bytes below 1 KiB ({@code "980 B"}),
     * otherwise one decimal in the largest fitting unit ({@code "2.0 KiB"}, {@code "1.5 GiB"}); bytes get one
     * decimal only when they have a fraction.
     */
    public static String formatBinary(double bytes) {
        double magnitude = Math.abs(bytes);
        if (magnitude == Math.rint(magnitude) && magnitude < WHOLE_BYTES_EXACT) {
            return formatWholeBytes((long) magnitude, bytes < 0);
        }
        BigDecimal value = new BigDecimal(magnitude);
        BigDecimal base = BigDecimal.valueOf(1024);
        int unit = 0;
        // Decide on the rounded figure, so that 1,048,575 bytes reads "1.0 MiB" rather than "1024.0 KiB".
        while (unit < BINARY_UNITS.length - 1 && oneDecimal(value).compareTo(base) >= 0) {
            value = value.divide(base);
            unit++;
        }
        BigDecimal rounded = oneDecimal(value);
        if (unit == 0 && rounded.stripTrailingZeros().scale() <= 0) {
            rounded = rounded.setScale(0, RoundingMode.UNNECESSARY);
        }
        String sign = bytes < 0 && rounded.signum() != 0 ? "-" : "";
        return sign + rounded.toPlainString() + " " + BINARY_UNITS[unit];
    }

    /**
     * {@link #formatBinary} for a whole number of bytes, in integer arithmetic: the same figure, rounded half up to
     * one decimal of the exact quotient, without the {@code BigDecimal} divisions that were 8 % of the CPU of
     * writing a 10,000-test run's reports (every chart axis and table cell formats sizes).
     */
    private static String formatWholeBytes(long bytes, boolean negative) {
        if (bytes < 1024) {
            return (negative && bytes != 0 ? "-" : "") + bytes + " B";
        }
        int unit = 1;
        long tenths = tenthsHalfUp(bytes, unit);
        while (unit < BINARY_UNITS.length - 1 && tenths >= 10_240) {
            unit++;
            tenths = tenthsHalfUp(bytes, unit);
        }
        return (negative ? "-" : "") + tenths / 10 + "." + tenths % 10 + " " + BINARY_UNITS[unit];
    }

    /** bytes / 1024^unit in tenths, rounded half up: exact, since 1024^unit is a power of two. */
    private static long tenthsHalfUp(long bytes, int unit) {
        int shift = 10 * unit;
        return (bytes * 10 + (1L << (shift - 1))) >> shift;
    }

    private static BigDecimal oneDecimal(BigDecimal value) {
        return value.setScale(1, RoundingMode.HALF_UP);
    }

    /** go-units' {@code BytesSize}, as {@code docker stats} prints memory: base 1024, {@code %.4g}, no space. */
    public static String dockerBinary(long bytes) {
        return dockerFormat(bytes, 1024.0, 4, DOCKER_BINARY_UNITS);
    }

    /** go-units' {@code HumanSizeWithPrecision(size, 3)}, as {@code docker stats} prints I/O: base 1000, %.3g. */
    public static String dockerDecimal(long bytes) {
        return dockerFormat(bytes, 1000.0, 3, DOCKER_DECIMAL_UNITS);
    }

    // go-units getSizeAndUnit: divide while size >= base, then format.
    private static String dockerFormat(long bytes, double base, int precision, String[] units) {
        double size = bytes;
        int i = 0;
        while (size >= base && i < units.length - 1) {
            size /= base;
            i++;
        }
        return GoFloatFormat.formatG(size, precision) + units[i];
    }
}
