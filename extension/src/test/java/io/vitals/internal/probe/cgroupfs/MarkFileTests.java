package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The high-water mark's file on regular files standing in for the kernel's. What a regular file cannot do (a kept
 * descriptor failing with ENODEV once its cgroup is removed, the per-file reset of Linux 6.12) is covered against
 * real cgroups: HostCgroupProbeV1Tests and LifecycleIT on this host, MeasurementAccuracyIT in the cgroup v2 guests.
 */
@DisplayName("MarkFile")
class MarkFileTests {

    @TempDir
    Path dir;

    @Test
    @DisplayName("cgroup v1: a reset writes 0 to memory.max_usage_in_bytes, through one descriptor kept open")
    @SuppressWarnings("try") // closed in the block on purpose, the close under test; the second close does nothing
    void maxUsageInBytes() throws Exception {
        Path file = Files.writeString(dir.resolve("memory.max_usage_in_bytes"), "314572800\n");
        try (MarkFile mark = MarkFile.maxUsageInBytes(dir)) {
            assertThat(mark.path()).isEqualTo(file);
            assertThat(mark.isOpen()).isFalse();
            mark.reset();
            assertThat(Files.readString(file)).isEqualTo("0");
            assertThat(mark.isOpen()).isTrue();
            // the second reset goes through the descriptor kept open: with the path gone, a fresh open would fail
            Files.delete(file);
            mark.reset();
            assertThat(mark.isOpen()).isTrue();
            assertThat(file).doesNotExist();
            mark.close();
            assertThat(mark.isOpen()).isFalse();
        }
    }

    @Test
    @DisplayName("cgroup v2: memory.peak is reset with 'reset' and read back through the descriptor written")
    void memoryPeak() throws Exception {
        Path file = Files.writeString(dir.resolve("memory.peak"), "209715200\n");
        try (MarkFile mark = MarkFile.memoryPeak(dir)) {
            mark.reset();
            assertThat(Files.readString(file)).startsWith("reset\n");
            Files.writeString(file, "52428800\n"); // what the kernel reports for this descriptor since the reset
            assertThat(mark.readValue()).isEqualTo(52_428_800L);
        }
    }

    @Test
    @DisplayName("an absent file is no resettable mark: the open fails, nothing is kept, and a later reset tries again")
    void absent() throws Exception {
        try (MarkFile mark = MarkFile.memoryPeak(dir)) {
            assertThatThrownBy(mark::reset).isInstanceOf(NoSuchFileException.class);
            assertThat(mark.isOpen()).isFalse();
            Files.writeString(dir.resolve("memory.peak"), "0\n");
            mark.reset();
            assertThat(mark.isOpen()).isTrue();
        }
    }

    @Test
    @DisplayName("the mark is read through the descriptor only once a reset opened it")
    void readBeforeReset() {
        MarkFile mark = MarkFile.memoryPeak(dir);
        assertThatThrownBy(mark::readValue).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("memory.peak is not open");
    }
}
