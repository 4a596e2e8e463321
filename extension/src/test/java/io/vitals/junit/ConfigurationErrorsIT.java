package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataRate;
import io.vitals.DataSize;
import io.vitals.MeasureResources;
import io.vitals.Percentage;
import io.vitals.ResourceBudget;
import io.vitals.internal.units.DurationParser;
import io.vitals.testing.StressContainer;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Container;

/**
 * Bad input fails the class before any container starts, with a message naming the test, the annotation, the
 * attribute, the value and what is accepted.
 */
@DisplayName("Configuration errors")
class ConfigurationErrorsIT {

    @TempDir
    Path reports;

    static Stream<Arguments> badBudgets() {
        return Stream.of(
                Arguments.of(UnknownUnit.class, "@ResourceBudget(peakMemory = \"1.5 GB?\") on method "
                        + "UnknownUnit.test(): Invalid data size '1.5 GB?': expected " + DataSize.ACCEPTED_FORMS),
                Arguments.of(NegativeDuration.class, "@ResourceBudget(cpuTime = \"-5s\") on method "
                        + "NegativeDuration.test(): Invalid duration '-5s': expected " + DurationParser.ACCEPTED_FORMS),
                Arguments.of(HeadroomOver100.class, "@ResourceBudget(memoryHeadroom = \"120%\") on class "
                        + "HeadroomOver100: Invalid headroom '120%': a share of the memory limit cannot exceed 100%"),
                Arguments.of(PercentWithoutSign.class, "@ResourceBudget(averageCpu = \"150\") on method "
                        + "PercentWithoutSign.test(): Invalid percentage '150': expected " + Percentage.ACCEPTED_FORMS
                        + "; did you mean 150%?"),
                Arguments.of(RateWithoutTime.class, "@ResourceBudget(memoryGrowth = \"10MiB\") on method "
                        + "RateWithoutTime.test(): Invalid data rate '10MiB': expected " + DataRate.ACCEPTED_FORMS
                        + "; a rate needs a time unit: did you mean 10MiB/min?"),
                Arguments.of(TwoBadValues.class, "2 invalid @ResourceBudget values:\n"
                        + "  - @ResourceBudget(peakMemory = \"200mb\") on method TwoBadValues.test(): Invalid data "
                        + "size '200mb': expected " + DataSize.ACCEPTED_FORMS
                        + "; units are case-sensitive: 200MB or 200MiB?\n"
                        + "  - @ResourceBudget(cpuTime = \"5 sec\") on method TwoBadValues.test(): Invalid duration "
                        + "'5 sec': expected " + DurationParser.ACCEPTED_FORMS + "; did you mean 5s?"),
                Arguments.of(BadOnTwoMethods.class, "2 invalid @ResourceBudget values:\n"
                        + "  - @ResourceBudget(peakMemory = \"200mb\") on method BadOnTwoMethods.first(): Invalid "
                        + "data size '200mb': expected " + DataSize.ACCEPTED_FORMS
                        + "; units are case-sensitive: 200MB or 200MiB?\n"
                        + "  - @ResourceBudget(peakMemory = \"2 Gib\") on method BadOnTwoMethods.second(): Invalid "
                        + "data size '2 Gib': expected " + DataSize.ACCEPTED_FORMS
                        + "; units are case-sensitive: 2GiB?"),
                Arguments.of(PidsNotANumber.class, "@ResourceBudget(peakPids = \"many\") on method "
                        + "PidsNotANumber.test(): Invalid count 'many': expected a non-negative whole number, e.g. 64"),
                Arguments.of(UnknownContainer.class, "@ResourceBudget(container = \"gpu\") on method "
                        + "UnknownContainer.test() names no watched container field; watched: stress"),
                Arguments.of(AmbiguousContainer.class, "@ResourceBudget on method AmbiguousContainer.test() names no "
                        + "container, but 2 are watched: first, second; set container = \"<field name>\""),
                Arguments.of(FlagOnPhase.class, "@ResourceBudget(phase = \"train\", allowOomKill = true) on method "
                        + "FlagOnPhase.test(): allowOomKill and failFast apply to the whole test; set them on a "
                        + "@ResourceBudget without a phase"),
                Arguments.of(BadInterval.class, "Invalid @MeasureResources(samplingInterval = \"fast\"): "
                        + "expected a duration of at least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBudgets")
    @DisplayName("fails the class with an exact message, and starts no container")
    void failsTheClassWithAnExactMessage(Class<?> testCase, String expectedMessage) {
        long containersBefore = managedContainers();

        EngineExecutionResults results = VitalsTestKit.run(reports, testCase);

        Event failed = results.containerEvents().failed().stream().findFirst()
                .orElseThrow(() -> new AssertionError("the class did not fail"));
        Throwable failure = VitalsTestKit.failureOf(failed);
        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessage(expectedMessage);
        assertThat(results.testEvents().started().count()).isZero();
        assertThat(managedContainers()).isEqualTo(containersBefore);
    }

    @Test
    @DisplayName("a bad run-wide sampling interval names the configuration key")
    void badRunWideSettingNamesTheKey() {
        EngineExecutionResults results = VitalsTestKit.run(reports, Fine.class, "vitals.samplingInterval", "0ms");

        Throwable failure = VitalsTestKit.failureOf(results.containerEvents().failed().stream().findFirst()
                .orElseThrow());
        assertThat(failure).hasMessage("Invalid value '0ms' for configuration parameter 'vitals.samplingInterval': "
                + "expected a duration of at least 1ms, such as 50ms, 1s or ISO-8601 PT0.5S");
    }

    private static long managedContainers() {
        return DockerClientFactory.lazyClient().listContainersCmd().withShowAll(true)
                .withLabelFilter(java.util.Map.of("io.vitals.managed", "true")).exec().size();
    }

    @MeasureResources
    static class UnknownUnit {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "1.5 GB?")
        void test() {
        }
    }

    @MeasureResources
    static class NegativeDuration {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(cpuTime = "-5s")
        void test() {
        }
    }

    @MeasureResources
    @ResourceBudget(memoryHeadroom = "120%")
    static class HeadroomOver100 {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        void test() {
        }
    }

    @MeasureResources
    static class PercentWithoutSign {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(averageCpu = "150")
        void test() {
        }
    }

    @MeasureResources
    static class RateWithoutTime {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(memoryGrowth = "10MiB")
        void test() {
        }
    }

    @MeasureResources
    static class TwoBadValues {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "200mb", cpuTime = "5 sec")
        void test() {
        }
    }

    @MeasureResources
    static class BadOnTwoMethods {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "200mb")
        void first() {
        }

        @Test
        @ResourceBudget(peakMemory = "2 Gib")
        void second() {
        }
    }

    @MeasureResources
    static class PidsNotANumber {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(peakPids = "many")
        void test() {
        }
    }

    @MeasureResources
    static class UnknownContainer {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(container = "gpu", peakMemory = "1GiB")
        void test() {
        }
    }

    @MeasureResources
    static class AmbiguousContainer {
        @Container
        static final StressContainer first = new StressContainer();

        @Container
        static final StressContainer second = new StressContainer();

        @Test
        @ResourceBudget(peakMemory = "1GiB")
        void test() {
        }
    }

    @MeasureResources
    static class FlagOnPhase {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        @ResourceBudget(phase = "train", allowOomKill = true)
        void test() {
        }
    }

    @MeasureResources(samplingInterval = "fast")
    static class BadInterval {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        void test() {
        }
    }

    @MeasureResources
    static class Fine {
        @Container
        static final StressContainer stress = new StressContainer();

        @Test
        void test() {
        }
    }
}
