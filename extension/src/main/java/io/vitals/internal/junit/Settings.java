package io.vitals.internal.junit;

import io.vitals.MeasureResources;
import io.vitals.Percentage;
import io.vitals.ProbeMode;
import io.vitals.internal.units.DurationParser;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The settings of one test class: the annotation's value if set, else the run-wide configuration parameter or
 * system property, else the default. A bad annotation value fails the class; a bad run-wide value fails too,
 * since silently measuring at another interval than asked would make every figure suspect.
 */
record Settings(Duration samplingInterval, ProbeMode probe, Path reportDir, boolean requireDocker,
        Percentage memoryWarning, boolean strict) {

    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(50);
    static final Percentage DEFAULT_MEMORY_WARNING = Percentage.of(90);

    static Settings resolve(Optional<MeasureResources> annotation, Function<String, Optional<String>> config) {
        String interval = pick(annotation.map(MeasureResources::samplingInterval), config,
                MeasureResources.SAMPLING_INTERVAL_KEY);
        String reportDir = pick(annotation.map(MeasureResources::reportDir), config,
                MeasureResources.REPORT_DIR_KEY);
        String warning = pick(annotation.map(MeasureResources::memoryWarning), config,
                MeasureResources.MEMORY_WARNING_KEY);
        ProbeMode probe = annotation.map(MeasureResources::probe).filter(mode -> mode != ProbeMode.AUTO)
                .orElseGet(() -> config.apply(MeasureResources.PROBE_KEY).map(Settings::parseProbe)
                        .orElse(ProbeMode.AUTO));
        boolean requireDocker = config.apply(MeasureResources.REQUIRE_DOCKER_KEY)
                .map(text -> parseBoolean(MeasureResources.REQUIRE_DOCKER_KEY, text)).orElse(false);
        boolean strict = config.apply(MeasureResources.STRICT_KEY)
                .map(text -> parseBoolean(MeasureResources.STRICT_KEY, text)).orElse(false);
        return new Settings(interval.isEmpty() ? DEFAULT_INTERVAL : parseInterval(interval),
                probe, Path.of(reportDir.isEmpty() ? "target/vitals" : reportDir), requireDocker,
                warning.isEmpty() ? DEFAULT_MEMORY_WARNING : parseWarning(warning), strict);
    }

    private static String pick(Optional<String> fromAnnotation, Function<String, Optional<String>> config,
            String key) {
        return fromAnnotation.filter(value -> !value.isBlank())
                .or(() -> config.apply(key).filter(value -> !value.isBlank())).orElse("");
    }

    private static Duration parseInterval(String text) {
        Duration interval;
        try {
            interval = DurationParser.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid("samplingInterval", MeasureResources.SAMPLING_INTERVAL_KEY, text, e.getMessage());
        }
        if (interval.compareTo(Duration.ofMillis(1)) < 0) {
            throw invalid("samplingInterval", MeasureResources.SAMPLING_INTERVAL_KEY, text,
                    "the sampling interval must be at least 1ms");
        }
        return interval;
    }

    private static Percentage parseWarning(String text) {
        try {
            Percentage warning = Percentage.parse(text);
            if (warning.value() > 100) {
                throw new IllegalArgumentException("a share of the memory limit cannot exceed 100%");
            }
            return warning;
        } catch (IllegalArgumentException e) {
            throw invalid("memoryWarning", MeasureResources.MEMORY_WARNING_KEY, text, e.getMessage());
        }
    }

    private static ProbeMode parseProbe(String text) {
        try {
            return ProbeMode.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException("Invalid value '" + text + "' for "
                    + MeasureResources.PROBE_KEY + ": expected auto, host_cgroup or engine_api");
        }
    }

    private static boolean parseBoolean(String key, String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new ExtensionConfigurationException("Invalid value '" + text + "' for "
                    + key + ": expected true or false");
        }
        return value.equals("true");
    }

    private static ExtensionConfigurationException invalid(String attribute, String key, String value,
            String reason) {
        return new ExtensionConfigurationException("Invalid @MeasureResources " + attribute + " (or " + key
                + ") '" + value + "': " + reason);
    }
}
