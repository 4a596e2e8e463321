package io.vitals.internal.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ProbeMode;
import io.vitals.internal.units.DurationParser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("SettingsReader")
class SettingsReaderTests {

    private static final String KEY = "vitals.some.key";

    private static SettingsReader reader(String value) {
        return new SettingsReader(key -> Optional.ofNullable(Map.of(KEY, value).get(key)));
    }

    private static <T> T read(String value, SettingParser<T> parser) {
        return reader(value).read(KEY, parser).orElseThrow();
    }

    /** The one message every bad run-wide value gets. */
    private static String message(String value, String accepted) {
        return "Invalid value '" + value + "' for configuration parameter '" + KEY + "': expected " + accepted;
    }

    private static void assertRejected(String value, SettingParser<?> parser, String accepted) {
        assertThatThrownBy(() -> reader(value).read(KEY, parser))
                .isInstanceOf(InvalidSettingException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message(value, accepted));
    }

    @Nested
    @DisplayName("unset and blank")
    class UnsetAndBlank {

        // A parser that accepts nothing, to show it is not even asked.
        private final SettingParser<String> never = new SettingParser<>("nothing", text -> {
            throw new IllegalArgumentException("asked for '" + text + "'");
        });

        @Test
        @DisplayName("an unset key is empty, or the fallback")
        void unset() {
            SettingsReader reader = new SettingsReader(key -> Optional.empty());
            assertThat(reader.read(KEY, never)).isEmpty();
            assertThat(reader.read(KEY, never, "fallback")).isEqualTo("fallback");
        }

        @ParameterizedTest(name = "[{index}] ''{0}''")
        @ValueSource(strings = {"", " ", "\t", "  \n "})
        @DisplayName("a blank value means the default, for every parser")
        void blank(String value) {
            assertThat(reader(value).read(KEY, never)).isEmpty();
            assertThat(reader(value).read(KEY, SettingParser.bool(), true)).isTrue();
            assertThat(reader(value).read(KEY, SettingParser.enumOf(ProbeMode.class), ProbeMode.ENGINE_API))
                    .isEqualTo(ProbeMode.ENGINE_API);
            assertThat(reader(value).read(KEY, SettingParser.duration())).isEmpty();
            assertThat(reader(value).read(KEY, SettingParser.percentage().orOff())).isEmpty();
        }

        @Test
        @DisplayName("the parser gets the value stripped; the message quotes it as it was set")
        void stripped() {
            assertThat(read("  text ", SettingParser.text())).isEqualTo("text");
            assertRejected(" maybe ", SettingParser.bool(), "true or false");
        }
    }

    @Nested
    @DisplayName("bool")
    class Bool {

        @ParameterizedTest
        @CsvSource({"true, true", "TRUE, true", "True, true", "' true ', true", "false, false", "FALSE, false",
                "fAlSe, false"})
        @DisplayName("true or false, in any case")
        void accepted(String value, boolean expected) {
            assertThat(read(value, SettingParser.bool())).isEqualTo(expected);
        }

        @ParameterizedTest
        @ValueSource(strings = {"yes", "no", "1", "0", "on", "truee"})
        @DisplayName("anything else names the key, the value and true or false")
        void rejected(String value) {
            assertRejected(value, SettingParser.bool(), "true or false");
        }
    }

    @Nested
    @DisplayName("enumOf")
    class EnumOf {

        @ParameterizedTest
        @CsvSource({"auto, AUTO", "AUTO, AUTO", "Host_Cgroup, HOST_CGROUP", "' engine_api ', ENGINE_API"})
        @DisplayName("a constant's name, in any case")
        void accepted(String value, ProbeMode expected) {
            assertThat(read(value, SettingParser.enumOf(ProbeMode.class))).isEqualTo(expected);
        }

        @ParameterizedTest
        @ValueSource(strings = {"docker", "host-cgroup", "engineapi", "0"})
        @DisplayName("anything else lists the names in lower case")
        void rejected(String value) {
            assertRejected(value, SettingParser.enumOf(ProbeMode.class), "auto, host_cgroup, engine_api or agent");
        }

        @Test
        @DisplayName("two constants read \"a or b\"")
        void twoConstants() {
            assertThat(SettingParser.enumOf(Pair.class).accepted()).isEqualTo("left or right");
        }
    }

    enum Pair { LEFT, RIGHT }

    @Nested
    @DisplayName("duration")
    class Durations {

        @ParameterizedTest
        @CsvSource({"250ms, PT0.25S", "1m30s, PT1M30S", "PT2S, PT2S", "' 1 s ', PT1S", "0s, PT0S"})
        @DisplayName("what DurationParser reads")
        void accepted(String value, Duration expected) {
            assertThat(read(value, SettingParser.duration())).isEqualTo(expected);
        }

        @ParameterizedTest
        @ValueSource(strings = {"5 sec", "fast", "-5s", "100", "30s1m"})
        @DisplayName("anything else quotes DurationParser's accepted forms and keeps its exception as the cause")
        void rejected(String value) {
            assertRejected(value, SettingParser.duration(), DurationParser.ACCEPTED_FORMS);
            assertThatThrownBy(() -> read(value, SettingParser.duration()))
                    .cause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Invalid duration");
        }
    }

    @Nested
    @DisplayName("size")
    class Sizes {

        @Test
        @DisplayName("what DataSize reads")
        void accepted() {
            assertThat(read("512MiB", SettingParser.size())).isEqualTo(DataSize.ofMiB(512));
            assertThat(read(" 1.5 GiB ", SettingParser.size())).isEqualTo(DataSize.ofGiB(1.5));
        }

        @ParameterizedTest
        @ValueSource(strings = {"lots", "512", "-1MiB", "1.5 GB?"})
        @DisplayName("anything else quotes DataSize's accepted forms")
        void rejected(String value) {
            assertRejected(value, SettingParser.size(), DataSize.ACCEPTED_FORMS);
        }
    }

    @Nested
    @DisplayName("percentage")
    class Percentages {

        @ParameterizedTest
        @CsvSource({"20%, 20", "12.5 %, 12.5", "' 150% ', 150", "0%, 0"})
        @DisplayName("what Percentage reads")
        void accepted(String value, double expected) {
            assertThat(read(value, SettingParser.percentage())).isEqualTo(Percentage.of(expected));
        }

        @ParameterizedTest
        @ValueSource(strings = {"20", "-5%", "twenty%", ".5%"})
        @DisplayName("anything else quotes Percentage's accepted forms")
        void rejected(String value) {
            assertRejected(value, SettingParser.percentage(), Percentage.ACCEPTED_FORMS);
        }

        @Test
        @DisplayName("orOff: off, in any case, is empty; the accepted forms say so")
        void orOff() {
            SettingParser<Optional<Percentage>> parser = SettingParser.percentage().orOff();
            assertThat(read("off", parser)).isEmpty();
            assertThat(read(" OFF ", parser)).isEmpty();
            assertThat(read("5%", parser)).contains(Percentage.of(5));
            assertRejected("none", parser, Percentage.ACCEPTED_FORMS + ", or off");
        }
    }

    @Nested
    @DisplayName("whole and decimal numbers")
    class Numbers {

        @Test
        @DisplayName("wholeNumber(min, example) reads digits of at least min")
        void wholeNumber() {
            assertThat(read("5", SettingParser.wholeNumber(1, 5))).isEqualTo(5);
            assertThat(read(" 20 ", SettingParser.wholeNumber(2, 20))).isEqualTo(20);
        }

        @ParameterizedTest
        @ValueSource(strings = {"0", "-3", "three", "2.5", "99999999999"})
        @DisplayName("below min or not a whole number: the rule and an example")
        void wholeNumberRejected(String value) {
            assertRejected(value, SettingParser.wholeNumber(1, 5), "a whole number of at least 1, e.g. 5");
        }

        @Test
        @DisplayName("decimal reads a finite number")
        void decimal() {
            assertThat(read("0.05", SettingParser.decimal())).isEqualTo(0.05);
            assertThat(read("1", SettingParser.decimal())).isEqualTo(1.0);
        }

        @ParameterizedTest
        @ValueSource(strings = {"NaN", "Infinity", "-Infinity", "five", "1,5"})
        @DisplayName("decimal rejects what is not a finite number")
        void decimalRejected(String value) {
            assertRejected(value, SettingParser.decimal(), "a decimal number, e.g. 0.05");
        }
    }

    @Nested
    @DisplayName("path and text")
    class PathAndText {

        @Test
        @DisplayName("a path is read as given, relative or absolute")
        void path() {
            assertThat(read("target/vitals", SettingParser.path())).isEqualTo(Path.of("target/vitals"));
            assertThat(read(" /tmp/vitals ", SettingParser.path())).isEqualTo(Path.of("/tmp/vitals"));
        }

        @Test
        @DisplayName("a path the file system rejects names the key")
        void badPath() {
            assertRejected("bad\0path", SettingParser.path(), "a file system path");
        }

        @Test
        @DisplayName("text is taken as it is, stripped")
        void text() {
            assertThat(read(" ci-42 ", SettingParser.text())).isEqualTo("ci-42");
        }
    }

    @Nested
    @DisplayName("where")
    class Where {

        private final SettingParser<Duration> atLeastOneMilli = SettingParser.duration()
                .where(d -> d.compareTo(Duration.ofMillis(1)) >= 0, "a duration of at least 1ms");

        @Test
        @DisplayName("keeps the values that follow the rule")
        void kept() {
            assertThat(read("1ms", atLeastOneMilli)).isEqualTo(Duration.ofMillis(1));
        }

        @ParameterizedTest
        @ValueSource(strings = {"0ms", "999us", "fast"})
        @DisplayName("a value breaking the rule, or not parsed at all, gets the rule's accepted text")
        void rejected(String value) {
            assertRejected(value, atLeastOneMilli, "a duration of at least 1ms");
        }
    }

    @Nested
    @DisplayName("annotation attributes")
    class Attributes {

        @Test
        @DisplayName("a blank attribute is not set")
        void blank() {
            assertThat(SettingsReader.attribute("MeasureResources", "samplingInterval", " ",
                    SettingParser.duration())).isEmpty();
        }

        @Test
        @DisplayName("a set attribute is parsed with the same parser")
        void set() {
            assertThat(SettingsReader.attribute("MeasureResources", "samplingInterval", " 20ms",
                    SettingParser.duration())).contains(Duration.ofMillis(20));
        }

        @Test
        @DisplayName("a bad attribute names the annotation, the attribute, the value and what is accepted")
        void rejected() {
            assertThatThrownBy(() -> SettingsReader.attribute("MeasureResources", "samplingInterval", "fast",
                    SettingParser.duration()))
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessage("Invalid @MeasureResources(samplingInterval = \"fast\"): expected "
                            + DurationParser.ACCEPTED_FORMS)
                    .cause().hasMessageContaining("Invalid duration 'fast'");
        }
    }
}
