package io.vitals.assertions;

import static io.vitals.assertions.Usages.usage;
import static io.vitals.assertions.VitalsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vitals.DataRate;
import io.vitals.DataSize;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** 3 MB read, 1 MB written, 20 kB received, 3 kB sent, memory growing by 10 MiB/min (see {@link Usages}). */
class ResourceUsageAssert_io_Tests {

    private static final String BLOCK_IO = "block I/O counter from host cgroup v1 files"
            + " (cgroup v1 misses buffered writes)";
    private static final String BLOCK_IO_V2 = "block I/O counter from host cgroup v2 files";
    private static final String NETWORK = "interface counters of the container's network namespace";

    @Test
    void should_pass_when_io_is_within_the_budgets() {
        assertThat(usage()).hasBlockReadAtMost("3MB").hasBlockReadAtMost(DataSize.ofMiB(3))
                .hasNetworkReceivedAtMost("20kB").hasNetworkReceivedAtMost(DataSize.ofKiB(20))
                .hasNetworkSentAtMost("3kB").hasNetworkSentAtMost(DataSize.ofBytes(3_000));
    }

    @Test
    void should_fail_when_block_read_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasBlockReadAtMost("1000000B"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting block read:%n"
                        + "  2.9 MiB%n"
                        + "to be at most:%n"
                        + "  976.6 KiB%n"
                        + "but it exceeded it by 1.9 MiB (+200.0%%); " + BLOCK_IO));
    }

    @Test
    void should_fail_when_block_write_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(onCgroupV2()).hasBlockWriteAtMost(DataSize.ofBytes(500_000)));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting block write:%n"
                        + "  976.6 KiB%n"
                        + "to be at most:%n"
                        + "  488.3 KiB%n"
                        + "but it exceeded it by 488.3 KiB (+100.0%%); " + BLOCK_IO_V2));
    }

    @Test
    void should_pass_when_block_write_on_cgroup_v2_is_within_the_budget() {
        assertThat(onCgroupV2()).hasBlockWriteAtMost("1MB").hasBlockWriteAtMost(DataSize.ofBytes(1_000_000));
    }

    @Test
    void should_fail_when_block_write_cannot_be_measured_on_this_host() {
        // GIVEN cgroup v1, which does not charge buffered writeback to the writer: its 1 MB is a lower bound
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasBlockWriteAtMost("1GiB"));
        // THEN a generous budget does not pass on a figure nobody counted
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting block write to be checked against:%n"
                        + "  1GiB%n"
                        + "but this host cannot measure it:%n"
                        + "  blockWrite cannot be measured here: cgroup v1 does not attribute buffered writeback to "
                        + "the container that wrote; run on a cgroup v2 host%n"
                        + "Assert it where it can be counted with whereMeasurable(), which skips such checks, or set "
                        + "it as a @ResourceBudget, which the reports mark \"not measurable here\""));
    }

    @Test
    void should_skip_unmeasurable_figures_and_check_the_rest_when_asked_where_measurable() {
        // GIVEN cgroup v1 that counted 0 B read (storage without a block device) and some write
        io.vitals.ResourceUsage usage = Usages.usages().blockIo(DataSize.ZERO, DataSize.ofMiB(64)).build();
        // WHEN / THEN the two block figures are skipped, the network figure still judged, also in a phase
        assertThat(usage).whereMeasurable().hasBlockReadAtMost("1B").hasBlockWriteAtMost("1B");
        Throwable error = catchThrowable(() -> assertThat(usage).whereMeasurable().hasBlockWriteAtMost("1B")
                .hasNetworkReceivedAtMost("1B"));
        Assertions.assertThat(error).hasMessageContaining("Expecting network received:");
        Throwable unmeasuredRead = catchThrowable(() -> assertThat(usage).hasBlockReadAtMost("1GiB"));
        Assertions.assertThat(unmeasuredRead).hasMessageContaining("cgroup v1's blkio controller counted 0 B");
    }

    @Test
    void should_carry_where_measurable_into_a_phase() {
        // GIVEN cgroup v1, whose block writes are not attributed to the writer, in every phase too
        io.vitals.ResourceUsage usage = usage();
        // WHEN / THEN skipped in the phase when asked on the whole, and failing there when not
        assertThat(usage).whereMeasurable().phase("train").hasBlockWriteAtMost("1B");
        Throwable error = catchThrowable(() -> assertThat(usage).phase("train").hasBlockWriteAtMost("1B"));
        Assertions.assertThat(error).hasMessageContaining("[container 'tf', phase 'train']")
                .hasMessageContaining("but this host cannot measure it:");
    }

    private static io.vitals.ResourceUsage onCgroupV2() {
        return Usages.usages().probe(io.vitals.ProbeKind.HOST_CGROUP_V2).build();
    }

    @Test
    void should_fail_when_network_received_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasNetworkReceivedAtMost("10000B"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting network received:%n"
                        + "  19.5 KiB%n"
                        + "to be at most:%n"
                        + "  9.8 KiB%n"
                        + "but it exceeded it by 9.8 KiB (+100.0%%); " + NETWORK));
    }

    @Test
    void should_fail_when_network_sent_exceeds_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasNetworkSentAtMost("1000B"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting network sent:%n"
                        + "  2.9 KiB%n"
                        + "to be at most:%n"
                        + "  1000 B%n"
                        + "but it exceeded it by 2.0 KiB (+200.0%%); " + NETWORK));
    }

    @Test
    void should_fail_with_the_same_message_for_a_typed_and_a_string_size() {
        // WHEN
        Throwable typed = catchThrowable(() -> assertThat(usage()).hasNetworkReceivedAtMost(DataSize.ofBytes(10_000)));
        Throwable text = catchThrowable(() -> assertThat(usage()).hasNetworkReceivedAtMost("10000 B"));
        // THEN
        Assertions.assertThat(typed).isNotNull().hasMessage(text.getMessage());
    }

    @Test
    void should_pass_when_memory_growth_is_at_most_the_budget() {
        assertThat(usage()).hasMemoryGrowthAtMost("10MiB/min").hasMemoryGrowthAtMost(DataRate.parse("1GiB/h"));
    }

    @Test
    void should_fail_when_memory_grows_faster_than_the_budget() {
        // WHEN
        Throwable error = catchThrowable(() -> assertThat(usage()).hasMemoryGrowthAtMost("5MiB/min"));
        // THEN
        Assertions.assertThat(error).hasMessage(String.format(
                "[container 'tf'] %n"
                        + "Expecting memory growth:%n"
                        + "  10.0 MiB/min%n"
                        + "to be at most:%n"
                        + "  5.0 MiB/min%n"
                        + "but it exceeded it by 5.0 MiB/min (+100.0%%); Theil–Sen slope over 4 points from 0 s to 20.0 s of the test"));
    }

    @Test
    void should_fail_with_the_same_message_for_a_typed_and_a_string_rate() {
        // WHEN
        Throwable typed = catchThrowable(() -> assertThat(usage()).hasMemoryGrowthAtMost(DataRate.parse("300MiB/h")));
        Throwable text = catchThrowable(() -> assertThat(usage()).hasMemoryGrowthAtMost("5MiB/min"));
        // THEN
        Assertions.assertThat(typed).isNotNull().hasMessage(text.getMessage());
    }

    @Test
    void should_reject_a_malformed_rate_with_the_grammar() {
        assertThatIllegalArgumentException().isThrownBy(() -> assertThat(usage()).hasMemoryGrowthAtMost("10MiB"))
                .withMessage("Invalid data rate '10MiB': expected " + DataRate.ACCEPTED_FORMS
                        + "; a rate needs a time unit: did you mean 10MiB/min?");
    }
}
