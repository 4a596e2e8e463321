package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.MeasureResources;
import io.vitals.Percentage;
import io.vitals.ProbeMode;
import io.vitals.internal.settings.InvalidSettingException;
import io.vitals.internal.units.DurationParser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Settings of a test class")
class SettingsTests {

    private static Settings resolve(Class<?> testClass, Map<String, String> config) {
        return Settings.resolve(Optional.ofNullable(testClass.getAnnotation(MeasureResources.class)),
                key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    @DisplayName("defaults: 50ms, auto, target/vitals, fail without Docker, 90%, not strict")
    void defaults() {
        Settings settings = resolve(Plain.class, Map.of());
        assertThat(settings).isEqualTo(new Settings(Duration.ofMillis(50), ProbeMode.AUTO, Path.of("target/vitals"),
                true, Percentage.of(90), false));
    }

    @Test
    @DisplayName("every run-wide key is read")
    void runWide() {
        Settings settings = resolve(Plain.class, Map.of(MeasureResources.SAMPLING_INTERVAL_KEY, "1s",
                MeasureResources.PROBE_KEY, "ENGINE_API", MeasureResources.REPORT_DIR_KEY, "build/vitals",
                MeasureResources.REQUIRE_DOCKER_KEY, "false", MeasureResources.MEMORY_WARNING_KEY, "75%",
                MeasureResources.STRICT_KEY, "True"));
        assertThat(settings).isEqualTo(new Settings(Duration.ofSeconds(1), ProbeMode.ENGINE_API,
                Path.of("build/vitals"), false, Percentage.of(75), true));
    }

    @Test
    @DisplayName("the annotation wins over the run-wide key; AUTO and blank attributes leave it to the key")
    void annotationWins() {
        Map<String, String> config = Map.of(MeasureResources.SAMPLING_INTERVAL_KEY, "1s",
                MeasureResources.PROBE_KEY, "engine_api", MeasureResources.REPORT_DIR_KEY, "build/vitals",
                MeasureResources.MEMORY_WARNING_KEY, "75%");
        assertThat(resolve(Tuned.class, config)).isEqualTo(new Settings(Duration.ofMillis(20),
                ProbeMode.HOST_CGROUP, Path.of("target/vitals-tuned"), true, Percentage.of(80), false));
        assertThat(resolve(Plain.class, config).probe()).isEqualTo(ProbeMode.ENGINE_API);
        assertThat(resolve(Plain.class, config).samplingInterval()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    @DisplayName("a bad attribute names the annotation, the attribute, the value and what is accepted")
    void badAttribute() {
        assertThatThrownBy(() -> resolve(BadInterval.class, Map.of()))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("Invalid @MeasureResources(samplingInterval = \"fast\"): expected a duration of at "
                        + "least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S")
                .cause().isInstanceOf(InvalidSettingException.class)
                .cause().hasMessage("Invalid duration 'fast': expected " + DurationParser.ACCEPTED_FORMS);
        assertThatThrownBy(() -> resolve(WarningOver100.class, Map.of()))
                .hasMessage("Invalid @MeasureResources(memoryWarning = \"120%\"): expected a share of the memory "
                        + "limit of at most 100%, e.g. 90%");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "vitals.samplingInterval; 0ms; a duration of at least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S",
            "vitals.samplingInterval; fast; a duration of at least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S",
            "vitals.probe; docker; auto, host_cgroup, engine_api or agent",
            "vitals.requireDocker; yes; true or false",
            "vitals.strict; 1; true or false",
            "vitals.memoryWarning; 101%; a share of the memory limit of at most 100%, e.g. 90%" })
    @DisplayName("a bad run-wide value fails the class, naming the key, the value and what is accepted")
    void badRunWideValue(String key, String value, String accepted) {
        assertThatThrownBy(() -> resolve(Plain.class, Map.of(key, value)))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("Invalid value '" + value + "' for configuration parameter '" + key + "': expected "
                        + accepted);
    }

    @Test
    @DisplayName("a good attribute hides a bad run-wide value of the same setting")
    void attributeHidesBadKey() {
        assertThat(resolve(Tuned.class, Map.of(MeasureResources.SAMPLING_INTERVAL_KEY, "fast"))
                .samplingInterval()).isEqualTo(Duration.ofMillis(20));
    }

    @MeasureResources
    static class Plain {
    }

    @MeasureResources(samplingInterval = "20ms", probe = ProbeMode.HOST_CGROUP, reportDir = "target/vitals-tuned",
            memoryWarning = "80%")
    static class Tuned {
    }

    @MeasureResources(samplingInterval = "fast")
    static class BadInterval {
    }

    @MeasureResources(memoryWarning = "120%")
    static class WarningOver100 {
    }
}
