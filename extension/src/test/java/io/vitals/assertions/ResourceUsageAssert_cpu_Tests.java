package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.Percentage;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** CPU time 30 s, average CPU 150% over 20 s, 120 ms throttled, 40 PIDs (see {@link Usages}). */
class ResourceUsageAssert_cpu_Tests {

    private static final String CPU_COUNTER = "cgroup CPU counter from host cgroup v1 files (exact)";

    @Test
    void should_pass_when_cpu_time_is_within_the_bounds() {
        assertThat(usage()).hasCpuTimeAtMost("30s").hasCpuTimeAtMost(Duration.ofMinutes(1))
                .hasCpuTimeAtLeast("PT10S").hasCpuTimeAtLeast(Duration.ofSeconds(30));
    }

    @Test
    void should_fail_when_cpu_time_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasCpuTimeAtMost("20s"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting CPU time:%n"
                        + "  30.0 s%n"
                        + "to be at most:%n"
                        + "  20.0 s%n"
                        + "but it exceeded it by 10.0 s (+50.0%%); " + CPU_COUNTER));
    }

    @Test
    void should_fail_with_the_same_message_for_a_typed_and_a_string_cpu_time() {
        // WHEN
        Throwable typed = catchThrowable(() -> assertThat(usage()).hasCpuTimeAtMost(Duration.ofSeconds(20)));
        Throwable text = catchThrowable(() -> assertThat(usage()).hasCpuTimeAtMost("20000ms"));
        // THEN
        Assertions.assertThat(typed).isNotNull().hasMessage(text.getMessage());
    }

    @Test
    void should_fail_when_cpu_time_stays_below_the_floor() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasCpuTimeAtLeast("1m"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting CPU time:%n"
                        + "  30.0 s%n"
                        + "to be at least:%n"
                        + "  1m%n"
                        + "but it fell short of it by 30.0 s (+50.0%%); " + CPU_COUNTER));
    }

    @Test
    void should_pass_when_average_cpu_is_within_the_bounds() {
        assertThat(usage()).hasAverageCpuAtMost("150%").hasAverageCpuAtMost(Percentage.of(200))
                .hasAverageCpuAtLeast("100%").hasAverageCpuAtLeast(Percentage.of(150));
    }

    @Test
    void should_fail_when_average_cpu_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasAverageCpuAtMost(Percentage.of(100)));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting average CPU:%n"
                        + "  150.0%%%n"
                        + "to be at most:%n"
                        + "  100.0%%%n"
                        + "but it exceeded it by 50.0%% (+50.0%%); CPU time over 20.0 s of wall time"));
    }

    @Test
    void should_fail_when_average_cpu_stays_below_the_floor() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasAverageCpuAtLeast("200%"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting average CPU:%n"
                        + "  150.0%%%n"
                        + "to be at least:%n"
                        + "  200.0%%%n"
                        + "but it fell short of it by 50.0%% (+25.0%%); CPU time over 20.0 s of wall time"));
    }

    @Test
    void should_fail_when_throttled_time_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasThrottledTimeAtMost("100ms"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting throttled time:%n"
                        + "  120 ms%n"
                        + "to be at most:%n"
                        + "  100 ms%n"
                        + "but it exceeded it by 20 ms (+20.0%%); CFS throttling counter from host cgroup v1 files"));
    }

    @Test
    void should_pass_when_throttled_time_is_at_most_the_budget() {
        assertThat(usage()).hasThrottledTimeAtMost("120ms").hasThrottledTimeAtMost(Duration.ofSeconds(1));
    }

    @Test
    void should_fail_when_peak_pids_exceed_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasPeakPidsAtMost(32));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting peak PIDs:%n"
                        + "  40%n"
                        + "to be at most:%n"
                        + "  32%n"
                        + "but it exceeded it by 8 (+25.0%%); sampled every 50 ms from host cgroup v1 files"));
    }

    @Test
    void should_pass_when_peak_pids_are_at_most_the_budget() {
        assertThat(usage()).hasPeakPidsAtMost(40);
    }

    @Test
    void should_reject_a_negative_pids_budget() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasPeakPidsAtMost(-1))
                .withMessage("peak PIDs budget must not be negative: -1");
    }

    @Test
    void should_reject_a_malformed_duration_with_the_grammar() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasCpuTimeAtMost("20 seconds"))
                .withMessage("Invalid duration '20 seconds': expected " + DurationParser.ACCEPTED_FORMS
                        + "; did you mean 20s?");
    }

    @Test
    void should_reject_a_malformed_percentage_with_the_grammar() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasAverageCpuAtMost("1.5 cores"))
                .withMessage("Invalid percentage '1.5 cores': expected " + Percentage.ACCEPTED_FORMS);
    }

    @Test
    void should_reject_a_negative_duration_budget() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(usage()).hasCpuTimeAtMost(Duration.ofSeconds(-1)))
                .withMessage("duration budget must not be negative: PT-1S");
    }
}
