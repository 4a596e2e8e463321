package io.vitals.internal.settings;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.internal.units.DurationParser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * How one kind of setting value is read: a function from text to value, and what it accepts, in words that complete
 * the sentence "expected …". The one parser of each kind lives here (one boolean, one enum, one duration, …), so
 * that {@code true}, {@code TRUE} and {@code " true "} mean the same for every key; a setting with a rule of its own
 * narrows one of them with {@link #where(Predicate, String)}.
 *
 * <p>{@link #read()} gets the value stripped and never blank (blank means "not set", which {@link SettingsReader}
 * handles), and throws {@link IllegalArgumentException} for what it does not accept; {@link SettingsReader} turns
 * that into an {@link InvalidSettingException} naming the key or attribute.
 *
 * @param accepted what is accepted, completing "expected …", e.g. {@code "true or false"}
 * @param read the parser proper
 */
@API(status = INTERNAL, since = "0.1")
public record SettingParser<T>(String accepted, Function<String, T> read) {

    public SettingParser {
        Objects.requireNonNull(accepted, "accepted");
        Objects.requireNonNull(read, "read");
    }

    /** {@code true} or {@code false}, in any case. */
    public static SettingParser<Boolean> bool() {
        return new SettingParser<>("true or false", text -> {
            if (text.equalsIgnoreCase("true")) {
                return true;
            }
            if (text.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException("not a boolean: " + text);
        });
    }

    /** The name of one of {@code type}'s constants, in any case; accepted are the names in lower case. */
    public static <E extends Enum<E>> SettingParser<E> enumOf(Class<E> type) {
        E[] constants = type.getEnumConstants();
        return new SettingParser<>(alternatives(Arrays.stream(constants)
                .map(constant -> constant.name().toLowerCase(Locale.ROOT)).toArray(String[]::new)), text -> {
                    for (E constant : constants) {
                        if (constant.name().equalsIgnoreCase(text)) {
                            return constant;
                        }
                    }
                    throw new IllegalArgumentException("no " + type.getSimpleName() + " named " + text);
                });
    }

    /** A duration as {@link DurationParser} reads it: {@code 250ms}, {@code 1m30s}, {@code PT1M30S}. */
    public static SettingParser<Duration> duration() {
        return new SettingParser<>(DurationParser.ACCEPTED_FORMS, DurationParser::parse);
    }

    /** A data size as {@link DataSize#parse(String)} reads it: {@code 512MiB}, {@code 1.5GiB}. */
    public static SettingParser<DataSize> size() {
        return new SettingParser<>(DataSize.ACCEPTED_FORMS, DataSize::parse);
    }

    /** A percentage as {@link Percentage#parse(String)} reads it: {@code 20%}, {@code 12.5 %}. */
    public static SettingParser<Percentage> percentage() {
        return new SettingParser<>(Percentage.ACCEPTED_FORMS, Percentage::parse);
    }

    /** A whole number in decimal digits, with an optional sign. */
    public static SettingParser<Integer> wholeNumber() {
        return new SettingParser<>("a whole number", Integer::parseInt);
    }

    /** A whole number of at least {@code min}; {@code example} goes into the message. */
    public static SettingParser<Integer> wholeNumber(int min, int example) {
        return wholeNumber().where(n -> n >= min, "a whole number of at least " + min + ", e.g. " + example);
    }

    /** A finite decimal number, e.g. {@code 0.05}. */
    public static SettingParser<Double> decimal() {
        return new SettingParser<Double>("a decimal number, e.g. 0.05", Double::parseDouble)
                .where(Double::isFinite, "a decimal number, e.g. 0.05");
    }

    /** A file system path, relative to the working directory unless absolute. */
    public static SettingParser<Path> path() {
        return new SettingParser<>("a file system path", Path::of);
    }

    /**
     * A comma-separated list of words, each one of {@code allowed} (in any case), e.g. {@code cpuModel,kernel};
     * read in the spelling of {@code allowed}.
     */
    public static SettingParser<java.util.List<String>> wordsOf(java.util.List<String> allowed) {
        String accepted = "a comma-separated list of " + alternatives(allowed.toArray(String[]::new));
        return new SettingParser<>(accepted, text -> Arrays.stream(text.split(","))
                .map(String::strip).filter(word -> !word.isEmpty())
                .map(word -> allowed.stream().filter(a -> a.equalsIgnoreCase(word)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("'" + word + "' is not one of "
                                + String.join(", ", allowed))))
                .distinct().toList());
    }

    /** Any text, as it is (stripped). */
    public static SettingParser<String> text() {
        return new SettingParser<>("any text", Function.identity());
    }

    /**
     * This parser, rejecting the values that break {@code rule}; {@code accepted} replaces what is accepted, so it
     * should state the rule, e.g. "a duration of at least 1ms, such as 50ms or 1s".
     */
    public SettingParser<T> where(Predicate<? super T> rule, String accepted) {
        return new SettingParser<>(accepted, text -> {
            T value = read.apply(text);
            if (!rule.test(value)) {
                throw new IllegalArgumentException("'" + text + "' is not " + accepted);
            }
            return value;
        });
    }

    /** This parser, also accepting {@code off} (in any case), read as empty: "not at all". */
    public SettingParser<Optional<T>> orOff() {
        return new SettingParser<>(accepted + ", or off",
                text -> text.equalsIgnoreCase("off") ? Optional.empty() : Optional.of(read.apply(text)));
    }

    /** Parses stripped, non-blank {@code text}. */
    T parse(String text) {
        return read.apply(text);
    }

    private static String alternatives(String... words) {
        if (words.length == 1) {
            return words[0];
        }
        return Arrays.stream(words, 0, words.length - 1).collect(Collectors.joining(", "))
                + " or " + words[words.length - 1];
    }
}
