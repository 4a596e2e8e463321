package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.Usages.usages;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;

import java.util.Optional;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class ResourceUsageAssert_oom_Tests {

    private static ResourceUsage killed(long kills) {
        return usages().oomKills(kills).memoryLimit(Optional.of(DataSize.ofMiB(512))).peak(DataSize.ofMiB(512))
                .build();
    }

    @Test
    void should_pass_when_no_process_was_oom_killed() {
        assertThat(usage()).wasNotOomKilled();
    }

    @Test
    void should_fail_when_a_process_was_oom_killed() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(killed(1)).wasNotOomKilled());
        // THEN
        Assertions.assertThat(error).hasMessage(String.format("[container 'tf'] %n"
                + "Expecting container 'tf' not to be OOM-killed but the kernel's OOM killer killed 1 process;"
                + " limit 512.0 MiB, peak 512.0 MiB"));
    }

    @Test
    void should_count_the_processes_killed() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(killed(2)).as("loader").wasNotOomKilled());
        // THEN
        Assertions.assertThat(error).hasMessage(String.format("[loader] %n"
                + "Expecting container 'tf' not to be OOM-killed but the kernel's OOM killer killed 2 processes;"
                + " limit 512.0 MiB, peak 512.0 MiB"));
    }

    @Test
    void should_pass_when_a_process_was_oom_killed_as_expected() {
        assertThat(killed(1)).wasOomKilled();
    }

    @Test
    void should_fail_when_no_process_was_oom_killed_but_one_should_have_been() {
        // GIVEN
        ResourceUsage usage = usages().container("hog").memoryLimit(Optional.empty()).build();
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage).wasOomKilled());
        // THEN
        Assertions.assertThat(error).hasMessage(String.format("[container 'hog'] %n"
                + "Expecting container 'hog' to be OOM-killed but the kernel's OOM killer killed no process;"
                + " limit none, peak 1.7 GiB"));
    }
}
