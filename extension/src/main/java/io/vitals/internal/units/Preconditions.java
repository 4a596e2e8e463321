package io.vitals.internal.units;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;

import org.apiguardian.api.API;

/**
 * Argument checks for constructors and factories.
 *
 * <p>Our own copy rather than JUnit's, because JUnit's {@code Preconditions} is {@code @API(INTERNAL)}.
 */
@API(status = INTERNAL, since = "0.1")
public final class Preconditions {

    private Preconditions() {
    }

    /**
     * Returns {@code value}, or throws a {@link NullPointerException} saying that {@code name} must not be null.
     */
    public static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name + " must not be null");
        }
        return value;
    }

    /**
     * Throws an {@link IllegalArgumentException} with the formatted message unless {@code condition} holds.
     * Formatting is locale-independent so that messages read the same on every machine.
     */
    public static void check(boolean condition, String messageFormat, Object... args) {
        if (!condition) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, messageFormat, args));
        }
    }
}
