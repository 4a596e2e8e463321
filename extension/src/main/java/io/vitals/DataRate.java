package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.units.DataSizeFormat;
import io.vitals.internal.units.DataSizeParser;
import io.vitals.internal.units.Preconditions;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * An amount of data per unit of time, e.g. memory growth of {@code 10MiB/min}.
 *
 * <p>Parsed rates are non-negative, but a measured rate may be negative (memory that shrinks), so
 * {@link #ofBytesPerSecond(double)} accepts negative values. Each rate remembers the time unit it is shown in
 * ({@code s}, {@code min} or {@code h}); that unit is presentation only and does not take part in
 * {@link #equals(Object)} or {@link #compareTo(DataRate)}.
 *
 * <pre>{@code
 * DataRate growth = DataRate.parse("10MiB/min");
 * growth.per(Duration.ofMinutes(3));   // 30.0 MiB
 * growth.toString();                   // "10.0 MiB/min"
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DataRate implements Comparable<DataRate> {

    /**
     * What {@link #parse(String)} accepts, for quoting in error messages; completes the sentence "expected …".
     */
    public static final String ACCEPTED_FORMS = "a non-negative data size, '/' and a time unit, e.g. 10MiB/min, 1MiB/s"
            + " or 500KiB/h (time units: s, min, h; size units as for sizes, every one binary: 1MB/s = 1MiB/s)";

    private static final Map<String, ChronoUnit> TIME_UNITS = Map.of(
            "s", ChronoUnit.SECONDS,
            "min", ChronoUnit.MINUTES,
            "h", ChronoUnit.HOURS);

    // The size part is checked by DataSize's grammar; this only splits it from the time unit.
    private static final Pattern RATE = Pattern.compile("(.+?)\\s*/\\s*([a-z]+)");

    private final double bytesPerSecond;
    private final ChronoUnit displayUnit;

    private DataRate(double bytesPerSecond, ChronoUnit displayUnit) {
        // Adding 0.0 turns -0.0 into 0.0, so that equals and compareTo see a single zero.
        this.bytesPerSecond = bytesPerSecond + 0.0;
        this.displayUnit = displayUnit;
    }

    /**
     * Returns the rate of {@code size} per {@code per}, shown per hour if {@code per} is at least an hour, per
     * minute if it is at least a minute, and per second otherwise.
     *
     * @param size the amount that flows in {@code per}
     * @param per the time it takes; positive
     * @return the rate
     * @throws IllegalArgumentException if {@code per} is zero or negative
     */
    public static DataRate of(DataSize size, Duration per) {
        Preconditions.notNull(size, "size");
        Preconditions.notNull(per, "per");
        Preconditions.check(!per.isNegative() && !per.isZero(), "rate period must be positive: %s", per);
        double bytesPerSecond = new BigDecimal(size.toBytes()).divide(seconds(per), MathContext.DECIMAL64).doubleValue();
        ChronoUnit unit = per.compareTo(Duration.ofHours(1)) >= 0 ? ChronoUnit.HOURS
                : per.compareTo(Duration.ofMinutes(1)) >= 0 ? ChronoUnit.MINUTES : ChronoUnit.SECONDS;
        return new DataRate(bytesPerSecond, unit);
    }

    /**
     * Returns a rate of {@code bytesPerSecond}, which may be negative for a shrinking amount. It is shown per
     * minute, because growth budgets are usually written per minute ({@code 10MiB/min}) and a measured rate
     * then reads in the same terms as its budget; use {@link #withDisplayUnit(ChronoUnit)} to change that.
     *
     * @param bytesPerSecond the rate in bytes per second, finite
     * @return the rate, shown per minute
     * @throws IllegalArgumentException if {@code bytesPerSecond} is NaN or infinite
     */
    public static DataRate ofBytesPerSecond(double bytesPerSecond) {
        Preconditions.check(Double.isFinite(bytesPerSecond), "rate must be a finite number of bytes per second: %s",
                bytesPerSecond);
        return new DataRate(bytesPerSecond, ChronoUnit.MINUTES);
    }

    /**
     * Parses a rate such as {@code "10MiB/min"}, {@code "1MiB/s"} or {@code "500 KiB / h"}.
     *
     * <p>Grammar: a data size as accepted by {@link DataSize#parse(String)} (so every unit is binary, as in
     * {@code docker run --memory}: {@code 1MB/s} is 1,048,576 bytes per second), optional whitespace, {@code /},
     * optional whitespace, then {@code s}, {@code min} or {@code h}. The size is not rounded to whole bytes, so
     * {@code "1.5B/s"} is exactly 1.5 bytes per second. The rate remembers its time unit for {@link #toString()}.
     *
     * @param text the rate as written in a budget
     * @return the rate, shown in the time unit of {@code text}
     * @throws IllegalArgumentException naming the text and {@link #ACCEPTED_FORMS} if it does not match
     */
    public static DataRate parse(String text) {
        Preconditions.notNull(text, "text");
        Matcher matcher = RATE.matcher(text.strip());
        Optional<BigDecimal> bytes = matcher.matches() ? DataSizeParser.parseExactBytes(matcher.group(1))
                : Optional.empty();
        ChronoUnit unit = matcher.matches() ? TIME_UNITS.get(matcher.group(2)) : null;
        if (bytes.isEmpty() || unit == null) {
            throw new IllegalArgumentException("Invalid data rate '" + text + "': expected " + ACCEPTED_FORMS);
        }
        double bytesPerSecond = bytes.get().divide(seconds(unit.getDuration()), MathContext.DECIMAL64).doubleValue();
        // A thousand-digit size divides to infinity; treat it as malformed rather than as an unlimited budget.
        if (!Double.isFinite(bytesPerSecond)) {
            throw new IllegalArgumentException("Invalid data rate '" + text + "': expected " + ACCEPTED_FORMS);
        }
        return new DataRate(bytesPerSecond, unit);
    }

    private static BigDecimal seconds(Duration duration) {
        return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
    }

    /** {@return bytes per second; negative for a shrinking amount} */
    public double bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * The amount this rate accumulates over {@code duration}, rounded to the nearest byte.
     *
     * @param duration how long the rate runs, not negative
     * @return the amount
     * @throws IllegalArgumentException if {@code duration} is negative or the amount exceeds {@link Long#MAX_VALUE}
     *         bytes
     * @throws IllegalStateException if this rate is negative, since a {@link DataSize} cannot be
     */
    public DataSize per(Duration duration) {
        Preconditions.notNull(duration, "duration");
        Preconditions.check(!duration.isNegative(), "duration must not be negative: %s", duration);
        if (bytesPerSecond < 0) {
            throw new IllegalStateException("cannot express the amount of negative rate " + this + " as a data size");
        }
        BigDecimal bytes = new BigDecimal(bytesPerSecond).multiply(seconds(duration));
        return DataSize.ofExactBytes(bytes, this + " over " + duration);
    }

    /**
     * Returns the same rate shown per {@code unit} in {@link #toString()}.
     *
     * @return the same rate, shown per {@code unit}
     * @param unit {@link ChronoUnit#SECONDS}, {@link ChronoUnit#MINUTES} or {@link ChronoUnit#HOURS}
     */
    public DataRate withDisplayUnit(ChronoUnit unit) {
        Preconditions.notNull(unit, "unit");
        Preconditions.check(TIME_UNITS.containsValue(unit), "display unit must be SECONDS, MINUTES or HOURS: %s", unit);
        return new DataRate(bytesPerSecond, unit);
    }

    /**
     * Whether this rate is strictly faster than {@code other}.
     *
     * @param other the rate to compare with
     * @return {@code true} if this rate has more bytes per second
     */
    public boolean isGreaterThan(DataRate other) {
        return compareTo(other) > 0;
    }

    /**
     * Whether this rate is strictly slower than {@code other}.
     *
     * @param other the rate to compare with
     * @return {@code true} if this rate has fewer bytes per second
     */
    public boolean isLessThan(DataRate other) {
        return compareTo(other) < 0;
    }

    @Override
    public int compareTo(DataRate other) {
        return Double.compare(bytesPerSecond, other.bytesPerSecond);
    }

    /** Equal if both rates are the same number of bytes per second, whatever unit they are shown in. */
    @Override
    public boolean equals(Object obj) {
        return obj instanceof DataRate && Double.compare(((DataRate) obj).bytesPerSecond, bytesPerSecond) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(bytesPerSecond);
    }

    /**
     * The amount per display unit in binary units with one decimal, e.g. {@code "10.0 MiB/min"},
     * {@code "-512.0 KiB/min"} or {@code "980 B/s"}; {@link #parse(String)} reads non-negative ones back.
     */
    @Override
    public String toString() {
        double amount = bytesPerSecond * displayUnit.getDuration().getSeconds();
        return DataSizeFormat.formatBinary(amount) + "/" + symbol(displayUnit);
    }

    private static String symbol(ChronoUnit unit) {
        return TIME_UNITS.entrySet().stream()
                .filter(entry -> entry.getValue() == unit)
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
    }
}
