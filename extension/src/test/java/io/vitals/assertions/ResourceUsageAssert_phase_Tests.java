package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.Usages.usages;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.ResourceUsage;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** Phases load, train (peak 1.2 GiB) and evaluate (see {@link Usages}). */
class ResourceUsageAssert_phase_Tests {

    @Test
    void should_pass_when_the_phase_is_within_its_budget() {
        assertThat(usage()).phase("train").hasPeakMemoryAtMost("1.2GiB");
    }

    @Test
    void should_fail_with_the_phase_in_the_description() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).phase("train").hasPeakMemoryAtMost("1GiB"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf', phase 'train'] %n"
                        + "Expecting peak memory:%n"
                        + "  1.2 GiB%n"
                        + "to be at most:%n"
                        + "  1.0 GiB%n"
                        + "but it exceeded it by 204.8 MiB (+20.0%%), reached at 12.4 s; limit 2.0 GiB;"
                        + " working set (MEM USAGE) sampled every 50 ms from host cgroup v1 files"));
    }

    @Test
    void should_keep_a_description_given_with_as() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).as("nightly").phase("train")
                .hasPeakMemoryAtMost("1GiB"));
        // THEN
        Assertions.assertThat(error).hasMessageStartingWith(String.format("[nightly, phase 'train'] %n"));
    }

    @Test
    void should_fail_when_the_phase_was_not_marked() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).phase("warmup"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting the test to have marked phase:%n"
                        + "  \"warmup\"%n"
                        + "but it marked only:%n"
                        + "  [\"load\", \"train\", \"evaluate\"]"));
    }

    @Test
    void should_fail_when_no_phase_was_marked() {
        // GIVEN
        ResourceUsage usage = usages().noPhases().build();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).phase("train"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting the test to have marked phase:%n"
                        + "  \"train\"%n"
                        + "but it marked no phase (ResourceMonitor.mark(String) starts one)"));
    }
}
