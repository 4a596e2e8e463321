package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.Usages.usages;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.testing.SourcedFixtures;

import java.util.Optional;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class ResourceUsageAssert_memory_Tests {

    private static final String METHOD = "working set (MEM USAGE) sampled every 50 ms from host cgroup v1 files";

    @Test
    void should_pass_when_peak_memory_is_at_most_the_budget() {
        // GIVEN a peak of 1.7 GiB
        ResourceUsage usage = usage();
        // WHEN/THEN
        assertThat(usage).hasPeakMemoryAtMost("2GiB")
                .hasPeakMemoryAtMost(DataSize.ofGiB(2))
                .hasPeakMemoryAtMost(DataSize.ofMiB(1740.8));
    }

    @Test
    void should_fail_when_peak_memory_exceeds_the_budget() {
        // GIVEN
        ResourceUsage usage = usage();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error).isInstanceOf(AssertionError.class).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting peak memory:%n"
                        + "  1.7 GiB%n"
                        + "to be at most:%n"
                        + "  1.5 GiB%n"
                        + "but it exceeded it by 204.8 MiB (+13.3%%), reached at 12.4 s; limit 2.0 GiB; " + METHOD));
    }

    @Test
    void should_fill_actual_and_expected_for_the_ide_when_peak_memory_exceeds_the_budget() {
        // WHEN
        AssertionFailedError error = catchThrowableOfType(AssertionFailedError.class,
                () -> assertThat(usage()).hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error.getActual().getValue()).isEqualTo("1.7 GiB");
        Assertions.assertThat(error.getExpected().getValue()).isEqualTo("1.5 GiB");
    }

    @Test
    void should_fail_with_the_same_message_for_a_typed_and_a_string_budget() {
        // WHEN
        Throwable typed = catchThrowable(() -> assertThat(usage()).hasPeakMemoryAtMost(DataSize.ofMiB(1536)));
        Throwable text = catchThrowable(() -> assertThat(usage()).hasPeakMemoryAtMost("1536MiB"));
        // THEN
        Assertions.assertThat(typed).isNotNull().hasMessage(text.getMessage());
    }

    @Test
    void should_fail_with_the_description_given_with_as() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).as("training").hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error).hasMessageStartingWith(String.format("[training] %nExpecting peak memory:%n"));
    }

    @Test
    void should_name_the_kernel_high_water_mark_when_the_host_keeps_one() {
        // GIVEN
        ResourceUsage usage = usages().highWaterMark(DataSize.ofMiB(1843.2)).build();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error).hasMessageEndingWith(
                "limit 2.0 GiB; " + METHOD + "; kernel high-water mark 1.8 GiB "
                + io.vitals.internal.budget.BudgetEvaluator.HIGH_WATER_MARK_NOT_JUDGED);
    }

    @Test
    void should_pass_when_peak_memory_reaches_the_floor() {
        assertThat(usage()).hasPeakMemoryAtLeast("1GiB").hasPeakMemoryAtLeast(DataSize.ofMiB(1740.8));
    }

    @Test
    void should_name_the_peak_composition_after_the_limit() {
        // GIVEN: what filled memory at the peak, read at 1.7 GiB after 12.4 s; kernel memory not readable here
        ResourceUsage plain = usage();
        ResourceUsage usage = plain.toBuilder().sourcedFigures(SourcedFixtures.every(1)
                .set(Metric.MAJOR_PAGE_FAULTS, 3)
                .set(Metric.PEAK_ANONYMOUS_MEMORY, DataSize.ofMiB(1536).toBytes())
                .set(Metric.PEAK_PAGE_CACHE, DataSize.ofMiB(200).toBytes())
                .set(Metric.PEAK_SHARED_MEMORY, DataSize.ofMiB(64).toBytes())
                .unavailable(Metric.PEAK_KERNEL_MEMORY, "this host has no memory.kmem.usage_in_bytes").build()
                .withAtPeak(new SourcedFigures.AtPeak(plain.peak().at(), plain.peakMemory().toBytes())))
                .build();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error).hasMessageContaining("limit 2.0 GiB; at 1.7 GiB (12.4 s): anonymous memory "
                + "1.5 GiB, page cache 200.0 MiB, shared memory 64.0 MiB, kernel memory not measured; " + METHOD);
    }

    @Test
    void should_fail_when_peak_memory_stays_below_the_floor() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasPeakMemoryAtLeast(DataSize.ofGiB(2)));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting peak memory:%n"
                        + "  1.7 GiB%n"
                        + "to be at least:%n"
                        + "  2.0 GiB%n"
                        + "but it fell short of it by 307.2 MiB (+15.0%%), reached at 12.4 s; limit 2.0 GiB; "
                        + METHOD));
    }

    @Test
    void should_pass_when_memory_headroom_is_at_least_the_floor() {
        // GIVEN 15% of the 2 GiB limit left free at the peak (a hair under: 14.99999998%)
        assertThat(usage()).hasMemoryHeadroomAtLeast("14.9%").hasMemoryHeadroomAtLeast(Percentage.of(10));
    }

    @Test
    void should_fail_when_memory_headroom_is_below_the_floor() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasMemoryHeadroomAtLeast("20%"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting memory headroom:%n"
                        + "  15.0%%%n"
                        + "to be at least:%n"
                        + "  20.0%%%n"
                        + "but it fell short of it by 5.0%% (+25.0%%), reached at 12.4 s; limit 2.0 GiB; " + METHOD));
    }

    @Test
    void should_fail_with_the_same_message_for_a_typed_and_a_string_headroom() {
        // WHEN
        Throwable typed = catchThrowable(() -> assertThat(usage()).hasMemoryHeadroomAtLeast(Percentage.of(20)));
        Throwable text = catchThrowable(() -> assertThat(usage()).hasMemoryHeadroomAtLeast("20%"));
        // THEN
        Assertions.assertThat(typed).isNotNull().hasMessage(text.getMessage());
    }

    @Test
    void should_fail_when_the_container_has_no_memory_limit_and_so_no_headroom() {
        // GIVEN
        ResourceUsage usage = usages().memoryLimit(Optional.empty()).build();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).hasMemoryHeadroomAtLeast("20%"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting memory headroom:%n"
                        + "  unknown%n"
                        + "to be at least:%n"
                        + "  20.0%%%n"
                        + "but it could not be checked: the container has no memory limit, so it has no headroom"));
    }

    @Test
    void should_reject_a_headroom_above_100_percent() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasMemoryHeadroomAtLeast("150%"))
                .withMessage("Invalid headroom '150%': a share of the memory limit cannot exceed 100%");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> assertThat(usage()).hasMemoryHeadroomAtLeast(Percentage.of(150)))
                .withMessage("Invalid headroom '150.0%': a share of the memory limit cannot exceed 100%");
    }

    @Test
    void should_reject_a_malformed_size_with_the_grammar() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasPeakMemoryAtMost("1.5 gigs"))
                .withMessage("Invalid data size '1.5 gigs': expected " + DataSize.ACCEPTED_FORMS);
    }

    @Test
    void should_point_the_stack_trace_at_the_caller() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasPeakMemoryAtMost("1.5GiB"));
        // THEN
        Assertions.assertThat(error.getStackTrace()[0].getClassName()).startsWith(getClass().getName());
    }

    @Test
    void should_fail_when_actual_is_null() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat((ResourceUsage) null).hasPeakMemoryAtMost("1GiB"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format("%nExpecting actual not to be null"));
    }
}
