package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.ResourceUsage;

import java.util.Optional;

import org.assertj.core.api.junit.jupiter.InjectSoftAssertions;
import org.assertj.core.api.junit.jupiter.SoftAssertionsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

class VitalsSoftAssertionsTests {

    private static final String TEST_KIT = "vitals.assertions.testKit";

    private static final String PEAK_MEMORY_FAILURE = String.format(
            "[container 'tf'] %n"
                    + "Expecting peak memory:%n"
                    + "  1.7 GiB%n"
                    + "to be at most:%n"
                    + "  1.5 GiB%n"
                    + "but it exceeded it by 204.8 MiB (+13.3%%), reached at 12.4 s; limit 2.0 GiB;"
                    + " working set (MEM USAGE) sampled every 50 ms from host cgroup v1 files");

    private static final String CPU_TIME_FAILURE = String.format(
            "[container 'tf'] %n"
                    + "Expecting CPU time:%n"
                    + "  30.0 s%n"
                    + "to be at most:%n"
                    + "  20.0 s%n"
                    + "but it exceeded it by 10.0 s (+50.0%%); cgroup CPU counter from host cgroup v1 files (exact)");

    @Test
    void should_pass_when_every_check_passes() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).hasPeakMemoryAtMost("2GiB").hasCpuTimeAtMost("1m").wasNotOomKilled();
        // THEN
        softly.assertAll();
        assertThat(softly.errorsCollected()).isEmpty();
    }

    @Test
    void should_collect_every_failure() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        softly.assertThat(usage()).hasPeakMemoryAtMost("1.5GiB").hasCpuTimeAtMost("20s").wasNotOomKilled();
        Throwable error = catchThrowable(softly::assertAll);
        // THEN
        // AssertJ appends the line of each failed check to collected messages.
        assertThat(softly.errorsCollected()).extracting(Throwable::getMessage).containsExactly(
                PEAK_MEMORY_FAILURE + String.format("%nat VitalsSoftAssertionsTests.should_collect_every_failure("
                        + "VitalsSoftAssertionsTests.java:%d)", line),
                CPU_TIME_FAILURE + String.format("%nat VitalsSoftAssertionsTests.should_collect_every_failure("
                        + "VitalsSoftAssertionsTests.java:%d)", line));
        assertThat(error).hasMessageContaining("Multiple Failures (2 failures)")
                .hasMessageContaining(PEAK_MEMORY_FAILURE).hasMessageContaining(CPU_TIME_FAILURE);
    }

    @Test
    void should_collect_failures_of_a_phase() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).phase("train").hasPeakMemoryAtMost("1GiB").hasCpuTimeAtMost("20s");
        softly.assertThat(usage()).wasOomKilled();
        // THEN
        assertThat(softly.errorsCollected()).extracting(Throwable::getMessage).satisfiesExactly(
                first -> assertThat(first).startsWith(String.format("[container 'tf', phase 'train'] %n"
                        + "Expecting peak memory:%n")),
                second -> assertThat(second).startsWith(String.format("[container 'tf', phase 'train'] %n"
                        + "Expecting CPU time:%n")),
                third -> assertThat(third).startsWith(String.format("[container 'tf'] %n"
                        + "Expecting container 'tf' to be OOM-killed")));
    }

    @Test
    void should_collect_each_kind_of_failure_with_a_stack_trace_starting_at_the_test() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        ResourceUsage noLimit = Usages.usages().memoryLimit(Optional.empty()).build();
        // WHEN
        softly.assertThat(usage()).hasPeakMemoryAtMost("1.5GiB");
        softly.assertThat(usage()).hasCpuTimeAtLeast("1m");
        softly.assertThat(noLimit).hasMemoryHeadroomAtLeast("20%");
        softly.assertThat(usage()).wasOomKilled();
        softly.assertThat(usage()).phase("warmup");
        softly.assertThat(usage()).phase("train").hasPeakMemoryAtMost("1GiB");
        softly.assertThat((ResourceUsage) null).wasNotOomKilled();
        // THEN
        String test = "should_collect_each_kind_of_failure_with_a_stack_trace_starting_at_the_test";
        assertThat(softly.errorsCollected()).hasSize(7).allSatisfy(error -> {
            assertThat(error.getStackTrace()[0].getClassName()).isEqualTo(getClass().getName());
            assertThat(error.getStackTrace()[0].getMethodName()).isEqualTo(test);
            assertThat(error).hasMessageContaining(String.format("%nat VitalsSoftAssertionsTests.%s(", test));
        });
        assertThat(softly.errorsCollected()).extracting(Throwable::getMessage).satisfiesExactly(
                peak -> assertThat(peak).contains("Expecting peak memory:", "to be at most:"),
                cpu -> assertThat(cpu).contains("Expecting CPU time:", "to be at least:"),
                headroom -> assertThat(headroom).contains("Expecting memory headroom:", "it could not be checked"),
                oom -> assertThat(oom).contains("Expecting container 'tf' to be OOM-killed"),
                missing -> assertThat(missing).contains("Expecting the test to have marked phase:"),
                phase -> assertThat(phase).startsWith(String.format("[container 'tf', phase 'train'] %n"
                        + "Expecting peak memory:%n")),
                none -> assertThat(none).startsWith(String.format("%nExpecting actual not to be null")));
    }

    @Test
    void should_keep_actual_and_expected_in_a_collected_budget_failure() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).hasPeakMemoryAtMost("1.5GiB");
        // THEN
        assertThat(softly.errorsCollected()).singleElement().isInstanceOfSatisfying(AssertionFailedError.class,
                error -> {
                    assertThat(error.getActual().getValue()).isEqualTo("1.7 GiB");
                    assertThat(error.getExpected().getValue()).isEqualTo("1.5 GiB");
                });
    }

    @Test
    void should_honour_an_overriding_message_in_soft_assertions() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).overridingErrorMessage("too much").hasPeakMemoryAtMost("1.5GiB");
        // THEN
        assertThat(softly.errorsCollected()).singleElement().extracting(Throwable::getMessage).asString()
                .startsWith("[container 'tf'] too much");
    }

    @Test
    void should_collect_a_missing_phase() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).phase("warmup");
        // THEN
        assertThat(softly.errorsCollected()).singleElement().extracting(Throwable::getMessage).asString()
                .contains("Expecting the test to have marked phase:");
    }

    @Test
    void should_honour_as_in_soft_assertions() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat(usage()).as("training").hasCpuTimeAtMost("20s");
        // THEN
        assertThat(softly.errorsCollected()).singleElement().extracting(Throwable::getMessage).asString()
                .startsWith(String.format("[training] %nExpecting CPU time:%n"));
    }

    @Test
    void should_collect_null_usage_failures() {
        // GIVEN
        VitalsSoftAssertions softly = new VitalsSoftAssertions();
        // WHEN
        softly.assertThat((ResourceUsage) null).hasPeakMemoryAtMost("1GiB").wasNotOomKilled();
        // THEN
        assertThat(softly.errorsCollected()).hasSize(2);
    }

    @Test
    void should_report_every_failure_with_assert_softly() {
        // WHEN
        Throwable error = catchThrowable(() -> VitalsSoftAssertions.assertSoftly(softly -> {
            softly.assertThat(usage()).hasPeakMemoryAtMost("1.5GiB");
            softly.assertThat(usage()).hasCpuTimeAtMost("20s");
        }));
        // THEN
        assertThat(error).hasMessageContaining("Multiple Failures (2 failures)");
    }

    @Test
    void should_be_injected_and_checked_by_assertj_soft_assertions_extension() {
        // WHEN
        var results = EngineTestKit.engine("junit-jupiter").configurationParameter(TEST_KIT, "true")
                .selectors(selectClass(InjectedTestCase.class)).execute();
        // THEN
        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        Throwable failure = results.testEvents().failed().stream().findFirst()
                .flatMap(event -> event.getPayload(org.junit.platform.engine.TestExecutionResult.class))
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).orElseThrow();
        assertThat(failure).hasMessageContaining("Multiple Failures (2 failures)")
                .hasMessageContaining(PEAK_MEMORY_FAILURE).hasMessageContaining(CPU_TIME_FAILURE);
        assertThat(results.testEvents().failed().stream().map(Event::getTestDescriptor)
                .map(descriptor -> descriptor.getDisplayName())).containsExactly("two_failures()");
    }

    /** Runs a fixture only under the test kit, not when a {@code -Dtest} pattern picks nested classes up. */
    static class OnlyInTestKit implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(TEST_KIT).isPresent()
                    ? ConditionEvaluationResult.enabled("run by the test kit")
                    : ConditionEvaluationResult.disabled("a fixture, run only by the test kit");
        }
    }

    @ExtendWith({ OnlyInTestKit.class, SoftAssertionsExtension.class })
    static class InjectedTestCase {

        @InjectSoftAssertions
        VitalsSoftAssertions softly;

        @Test
        void two_failures() {
            softly.assertThat(usage()).hasPeakMemoryAtMost("1.5GiB").hasCpuTimeAtMost("20s");
        }

        @Test
        void no_failure() {
            softly.assertThat(usage()).hasPeakMemoryAtMost("2GiB");
        }
    }
}
