package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.units.DataSizeFormat;
import io.vitals.internal.units.DataSizeParser;
import io.vitals.internal.units.Preconditions;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apiguardian.api.API;

/**
 * An amount of memory or data: a non-negative whole number of bytes.
 *
 * <p>Parsed from strings such as {@code "512MiB"}, {@code "1.5 GiB"}, {@code "200MB"} or {@code "2g"}; see
 * {@link #parse(String)} for the grammar. <b>Every unit is binary (1024), as {@code docker run --memory} reads it</b>:
 * {@code 1MB}, {@code 1m} and {@code 1MiB} are all 1,048,576 bytes, so a budget means what the same text means in
 * a docker command. There are no decimal units; write bytes ({@code 1000000B}) for an exact decimal amount. Printed
 * sizes always use IEC units ({@code "200.0 MiB"}), which no one can misread.
 *
 * <pre>{@code
 * DataSize peak = DataSize.parse("1.5GiB");
 * peak.toString();               // "1.5 GiB"
 * peak.toDockerBinaryString();   // "1.5GiB", as in `docker stats`
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DataSize implements Comparable<DataSize> {

    /**
     * What {@link #parse(String)} accepts, for quoting in error messages; completes the sentence "expected …".
     */
    public static final String ACCEPTED_FORMS = "a non-negative number followed by a unit, e.g. 512MiB, 1.5GiB, 200MB"
            + " or 2g (units: B, KiB, MiB, GiB, TiB, or k, m, g, t, kB, KB, MB, GB, TB; every unit is binary, 1024,"
            + " as in docker run --memory: 1MB = 1MiB = 1,048,576 B)";

    /** No bytes at all. */
    public static final DataSize ZERO = new DataSize(0);

    private static final long KIB = 1024L;
    private static final long MIB = KIB * 1024;
    private static final long GIB = MIB * 1024;
    private static final long TIB = GIB * 1024;

    private static final BigDecimal MAX_BYTES = BigDecimal.valueOf(Long.MAX_VALUE);

    private final long bytes;

    private DataSize(long bytes) {
        this.bytes = bytes;
    }

    /**
     * Returns a size of {@code bytes} bytes.
     *
     * @param bytes the number of bytes, not negative
     * @return the size
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public static DataSize ofBytes(long bytes) {
        Preconditions.check(bytes >= 0, "data size must not be negative: %d B", bytes);
        return bytes == 0 ? ZERO : new DataSize(bytes);
    }

    /**
     * Returns {@code kib} × 1024 bytes.
     *
     * @param kib the size in KiB, not negative
     * @return the size
     */
    public static DataSize ofKiB(long kib) {
        return of(BigDecimal.valueOf(kib), KIB, "KiB");
    }

    /**
     * Returns {@code kib} × 1024 bytes, rounded to the nearest byte.
     *
     * @param kib the size in KiB, finite and not negative
     * @return the size
     */
    public static DataSize ofKiB(double kib) {
        return of(kib, KIB, "KiB");
    }

    /**
     * Returns {@code mib} × 1024² bytes.
     *
     * @param mib the size in MiB, not negative
     * @return the size
     */
    public static DataSize ofMiB(long mib) {
        return of(BigDecimal.valueOf(mib), MIB, "MiB");
    }

    /**
     * Returns {@code mib} × 1024² bytes, rounded to the nearest byte.
     *
     * @param mib the size in MiB, finite and not negative
     * @return the size
     */
    public static DataSize ofMiB(double mib) {
        return of(mib, MIB, "MiB");
    }

    /**
     * Returns {@code gib} × 1024³ bytes.
     *
     * @param gib the size in GiB, not negative
     * @return the size
     */
    public static DataSize ofGiB(long gib) {
        return of(BigDecimal.valueOf(gib), GIB, "GiB");
    }

    /**
     * Returns {@code gib} × 1024³ bytes, rounded to the nearest byte.
     *
     * @param gib the size in GiB, finite and not negative
     * @return the size
     */
    public static DataSize ofGiB(double gib) {
        return of(gib, GIB, "GiB");
    }

    /**
     * Parses a size such as {@code "512MiB"}, {@code "1.5 GiB"}, {@code "200MB"} or {@code "2g"}.
     *
     * <p>Grammar: a non-negative decimal number ({@code 512}, {@code 1.5}; not {@code .5}, {@code 1.} or
     * exponents), optional whitespace, then a case-sensitive unit: {@code B}, {@code KiB MiB GiB TiB},
     * {@code k m g t}, {@code K M G T} or {@code kB KB MB GB TB}. Every unit but {@code B} is binary, as in
     * {@code docker run --memory}: {@code 1KB} = {@code 1kB} = {@code 1k} = {@code 1KiB} = 1024 bytes. A unit is
     * required: a bare number is ambiguous. Surrounding whitespace is ignored and fractional bytes round to the
     * nearest byte (half up).
     *
     * @param text the size with its unit, as written in a budget or for {@code docker run --memory}
     * @return the size, rounded to whole bytes
     * @throws IllegalArgumentException naming the text and {@link #ACCEPTED_FORMS} if it does not match, or if
     *         it exceeds {@link Long#MAX_VALUE} bytes
     */
    public static DataSize parse(String text) {
        Preconditions.notNull(text, "text");
        BigDecimal bytes = DataSizeParser.parseExactBytes(text.strip())
                .orElseThrow(() -> new IllegalArgumentException(
                        "Invalid data size '" + text + "': expected " + ACCEPTED_FORMS))
                .setScale(0, RoundingMode.HALF_UP);
        // A distinct message: the text has the right form, so repeating the accepted forms would mislead.
        Preconditions.check(fitsInLong(bytes), "Invalid data size '%s': exceeds the largest supported size, %d B",
                text, Long.MAX_VALUE);
        return ofBytes(bytes.longValueExact());
    }

    /**
     * Rounds an exact byte count to the nearest byte.
     *
     * @param description what the bytes are, for the error message
     * @throws IllegalArgumentException if {@code exactBytes} is negative or exceeds {@link Long#MAX_VALUE}
     */
    static DataSize ofExactBytes(BigDecimal exactBytes, String description) {
        Preconditions.check(exactBytes.signum() >= 0, "data size must not be negative: %s", description);
        BigDecimal rounded = exactBytes.setScale(0, RoundingMode.HALF_UP);
        Preconditions.check(fitsInLong(rounded), "data size must not exceed %d B: %s", Long.MAX_VALUE, description);
        return ofBytes(rounded.longValueExact());
    }

    private static DataSize of(BigDecimal amount, long factor, String unit) {
        return ofExactBytes(amount.multiply(BigDecimal.valueOf(factor)), amount.toPlainString() + " " + unit);
    }

    private static DataSize of(double amount, long factor, String unit) {
        Preconditions.check(Double.isFinite(amount), "data size must be a finite number: %s %s", amount, unit);
        // valueOf uses the shortest decimal form, so ofGiB(1.1) is exactly 1.1 × 1024³ bytes, rounded once.
        return ofExactBytes(BigDecimal.valueOf(amount).multiply(BigDecimal.valueOf(factor)), amount + " " + unit);
    }

    private static boolean fitsInLong(BigDecimal value) {
        return value.compareTo(MAX_BYTES) <= 0;
    }

    /** {@return the number of bytes} */
    public long toBytes() {
        return bytes;
    }

    /** {@return this size in KiB (1024 bytes)} */
    public double toKiB() {
        return (double) bytes / KIB;
    }

    /** {@return this size in MiB (1024² bytes)} */
    public double toMiB() {
        return (double) bytes / MIB;
    }

    /** {@return this size in GiB (1024³ bytes)} */
    public double toGiB() {
        return (double) bytes / GIB;
    }

    /**
     * Returns the sum of both sizes.
     *
     * @param other the size to add
     * @return the sum
     * @throws ArithmeticException if the sum exceeds {@link Long#MAX_VALUE} bytes
     */
    public DataSize plus(DataSize other) {
        Preconditions.notNull(other, "other");
        return ofBytes(Math.addExact(bytes, other.bytes));
    }

    /**
     * Returns this size less {@code other}.
     *
     * @param other the size to subtract; at most this size
     * @return the difference
     * @throws IllegalArgumentException if {@code other} is larger, since a size cannot be negative; use
     *         {@link #saturatingMinus(DataSize)} to clamp at zero instead
     */
    public DataSize minus(DataSize other) {
        Preconditions.notNull(other, "other");
        Preconditions.check(bytes >= other.bytes,
                "cannot subtract %s from %s: a data size must not be negative (use saturatingMinus to clamp at zero)",
                other, this);
        return ofBytes(bytes - other.bytes);
    }

    /**
     * Returns this size less {@code other}, or {@link #ZERO} if {@code other} is larger.
     *
     * @param other the size to subtract
     * @return the difference, never below zero
     */
    public DataSize saturatingMinus(DataSize other) {
        Preconditions.notNull(other, "other");
        return bytes > other.bytes ? ofBytes(bytes - other.bytes) : ZERO;
    }

    /**
     * Whether this size is strictly larger than {@code other}.
     *
     * @param other the size to compare with
     * @return {@code true} if this size has more bytes
     */
    public boolean isGreaterThan(DataSize other) {
        return compareTo(other) > 0;
    }

    /**
     * Whether this size is strictly smaller than {@code other}.
     *
     * @param other the size to compare with
     * @return {@code true} if this size has fewer bytes
     */
    public boolean isLessThan(DataSize other) {
        return compareTo(other) < 0;
    }

    /**
     * The larger of both sizes ({@code a} if they are equal).
     *
     * @param a one size
     * @param b the other size
     * @return the larger one
     */
    public static DataSize max(DataSize a, DataSize b) {
        return b.isGreaterThan(a) ? b : a;
    }

    /**
     * The smaller of both sizes ({@code a} if they are equal).
     *
     * @param a one size
     * @param b the other size
     * @return the smaller one
     */
    public static DataSize min(DataSize a, DataSize b) {
        return b.isLessThan(a) ? b : a;
    }

    /**
     * This size divided by {@code other}, e.g. 0.75 for a peak of 768MiB against a 1GiB limit.
     *
     * @param other the size to divide by; not zero
     * @return the ratio of both sizes in bytes
     * @throws IllegalArgumentException if {@code other} is zero, since the ratio would be infinite or undefined
     */
    public double ratioTo(DataSize other) {
        Preconditions.notNull(other, "other");
        Preconditions.check(other.bytes != 0, "cannot compute the ratio of %s to a zero data size", this);
        return (double) bytes / other.bytes;
    }

    /**
     * Formats like go-units' {@code BytesSize}, which {@code docker stats} uses: base 1024, {@code %.4g}, no
     * space, e.g. {@code 5.629MiB}, {@code 196KiB}, {@code 0B}. Like go-units it divides while the value is at
     * least 1024 and rounds afterwards, so 1,048,544 bytes prints as {@code 1024KiB}.
     *
     * @return the size as {@code docker stats} prints MEM USAGE
     */
    public String toDockerBinaryString() {
        return DataSizeFormat.dockerBinary(bytes);
    }

    /**
     * Formats like go-units' {@code HumanSizeWithPrecision(size, 3)}, which {@code docker stats} uses for I/O:
     * base 1000, {@code %.3g}, no space, e.g. {@code 916B}, {@code 2.48kB}, {@code 4.11MB}. Go's {@code %g}
     * switches to exponent form when rounding reaches 1000, so 999,600 bytes prints as {@code 1e+03kB}.
     *
     * @return the size as {@code docker stats} prints BLOCK I/O and NET I/O
     */
    public String toDockerDecimalString() {
        return DataSizeFormat.dockerDecimal(bytes);
    }

    @Override
    public int compareTo(DataSize other) {
        return Long.compare(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DataSize && ((DataSize) obj).bytes == bytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bytes);
    }

    /**
     * A human-readable binary form that {@link #parse(String)} reads back: whole bytes below 1 KiB ({@code "980 B"}),
     * otherwise one decimal in the largest fitting unit ({@code "2.0 KiB"}, {@code "512.0 MiB"}, {@code "1.5 GiB"}).
     */
    @Override
    public String toString() {
        return DataSizeFormat.formatBinary(bytes);
    }
}
