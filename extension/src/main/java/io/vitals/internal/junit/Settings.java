package io.vitals.internal.junit;

import io.vitals.MeasureResources;
import io.vitals.Percentage;
import io.vitals.ProbeMode;
import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.settings.InvalidSettingException;
import io.vitals.internal.settings.SettingParser;
import io.vitals.internal.settings.SettingsReader;

import java.nio.file.Path;
import java.time.Duration;
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

    private static final String ANNOTATION = MeasureResources.class.getSimpleName();

    private static final SettingParser<Duration> INTERVAL = SettingParser.duration()
            .where(interval -> interval.compareTo(Duration.ofMillis(1)) >= 0,
                    "a duration of at least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S");
    private static final SettingParser<Percentage> MEMORY_WARNING = SettingParser.percentage()
            .where(warning -> warning.value() <= 100, "a share of the memory limit of at most 100%, e.g. 90%");

    /** @throws ExtensionConfigurationException naming the attribute or key, the value and what is accepted */
    static Settings resolve(Optional<MeasureResources> annotation, Function<String, Optional<String>> config) {
        SettingsReader reader = new SettingsReader(config);
        try {
            Duration interval = pick(annotation.map(MeasureResources::samplingInterval), "samplingInterval",
                    MeasureResources.SAMPLING_INTERVAL_KEY, INTERVAL, reader).orElse(DEFAULT_INTERVAL);
            Path reportDir = pick(annotation.map(MeasureResources::reportDir), "reportDir",
                    MeasureResources.REPORT_DIR_KEY, SettingParser.path(), reader)
                    .orElse(ReportSettings.DEFAULT_REPORT_DIR);
            Percentage warning = pick(annotation.map(MeasureResources::memoryWarning), "memoryWarning",
                    MeasureResources.MEMORY_WARNING_KEY, MEMORY_WARNING, reader).orElse(DEFAULT_MEMORY_WARNING);
            // AUTO is the attribute's default, so only another mode on the annotation overrides the run-wide key.
            ProbeMode probe = annotation.map(MeasureResources::probe).filter(mode -> mode != ProbeMode.AUTO)
                    .orElseGet(() -> reader.read(MeasureResources.PROBE_KEY, SettingParser.enumOf(ProbeMode.class),
                            ProbeMode.AUTO));
            boolean requireDocker = reader.read(MeasureResources.REQUIRE_DOCKER_KEY, SettingParser.bool(), true);
            boolean strict = reader.read(MeasureResources.STRICT_KEY, SettingParser.bool(), false);
            return new Settings(interval, probe, reportDir, requireDocker, warning, strict);
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(e.getMessage(), e);
        }
    }

    /**
     * The report directory alone, for a class whose other settings are invalid: its failure must still reach the
     * reports. The default where the directory itself is the invalid value.
     */
    static Path reportDirOf(Optional<MeasureResources> annotation, Function<String, Optional<String>> config) {
        try {
            return pick(annotation.map(MeasureResources::reportDir), "reportDir", MeasureResources.REPORT_DIR_KEY,
                    SettingParser.path(), new SettingsReader(config)).orElse(ReportSettings.DEFAULT_REPORT_DIR);
        } catch (InvalidSettingException e) {
            return ReportSettings.DEFAULT_REPORT_DIR;
        }
    }

    private static <T> Optional<T> pick(Optional<String> fromAnnotation, String attribute, String key,
            SettingParser<T> parser, SettingsReader reader) {
        return fromAnnotation.flatMap(value -> SettingsReader.attribute(ANNOTATION, attribute, value, parser))
                .or(() -> reader.read(key, parser));
    }
}
