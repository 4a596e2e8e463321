package io.vitals.internal.settings;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * Reads run-wide settings by key from a lookup (the JUnit configuration parameters, which fall back to system
 * properties) and parses them with a {@link SettingParser}.
 *
 * <p>Unset and blank both mean "use the default", as an empty annotation attribute does. A value the parser rejects
 * fails with an {@link InvalidSettingException} naming the key, the value and what is accepted: a run measured
 * otherwise than asked would make every figure suspect, so a bad value is never ignored.
 */
@API(status = INTERNAL, since = "0.1")
public final class SettingsReader {

    private final Function<String, Optional<String>> lookup;

    /** @param lookup the raw value of a key, empty when it is not set */
    public SettingsReader(Function<String, Optional<String>> lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    /**
     * The value of {@code key}, parsed; empty when unset or blank.
     *
     * @throws InvalidSettingException naming the key, the value and {@link SettingParser#accepted()}
     */
    public <T> Optional<T> read(String key, SettingParser<T> parser) {
        Optional<String> raw = lookup.apply(key).filter(value -> !value.isBlank());
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.parse(raw.get().strip()));
        } catch (IllegalArgumentException e) {
            throw InvalidSettingException.ofParameter(key, raw.get(), parser.accepted(), e);
        }
    }

    /**
     * The value of {@code key}, parsed; {@code fallback} when unset or blank.
     *
     * @throws InvalidSettingException naming the key, the value and {@link SettingParser#accepted()}
     */
    public <T> T read(String key, SettingParser<T> parser, T fallback) {
        return read(key, parser).orElse(fallback);
    }

    /**
     * The value of an annotation's string attribute, parsed with the same parser as its run-wide key; empty when
     * blank (the attribute's "not set").
     *
     * @param annotation the annotation's simple name, e.g. {@code MeasureResources}
     * @throws InvalidSettingException naming the annotation, the attribute, the value and what is accepted
     */
    public static <T> Optional<T> attribute(String annotation, String attribute, String value,
            SettingParser<T> parser) {
        if (value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.parse(value.strip()));
        } catch (IllegalArgumentException e) {
            throw InvalidSettingException.ofAttribute(annotation, attribute, value, parser.accepted(), e);
        }
    }
}
