package io.vitals.internal.probe;

import static io.vitals.internal.probe.HostCgroupProbes.NOW;
import static io.vitals.internal.probe.HostCgroupProbes.deleteTree;
import static io.vitals.internal.probe.HostCgroupProbes.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.ProbeKind;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HostCgroupProbe, cgroup v2 systemd (hand-written)")
class HostCgroupProbeV2Tests {

    @TempDir
    Path temp;

    @Test
    @DisplayName("every field equals the files")
    void everyField() throws ProbeException {
        try (HostCgroupProbe probe = open(Fixtures.v2Root(), Fixtures.V2_PID)) {
            RawReading r = probe.read();
            assertThat(probe.kind()).isEqualTo(ProbeKind.HOST_CGROUP_V2);
            assertThat(r.wallTime()).isEqualTo(NOW);
            assertThat(r.cpu().totalNanos()).isEqualTo(8_123_456_000L); // usage_usec x 1000
            assertThat(r.cpu().userNanos()).isEqualTo(7_000_000_000L);
            assertThat(r.cpu().systemNanos()).isEqualTo(1_123_456_000L);
            assertThat(r.cpu().hostNanos()).isEmpty();
            assertThat(r.cpu().onlineCpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
            assertThat(r.memory().chargedBytes()).isEqualTo(157_286_400L);
            assertThat(r.memory().inactiveFileBytes()).isEqualTo(31_457_280L);
            assertThat(r.memory().pageCacheBytes()).isEqualTo(41_943_040L);
            assertThat(r.memory().anonymousBytes()).isEqualTo(104_857_600L);
            assertThat(r.memory().swapBytes()).isEqualTo(OptionalLong.of(4096));
            assertThat(r.memory().limitBytes()).isEmpty(); // "max"
            assertThat(r.memory().highWaterMarkBytes()).hasValue(209_715_200L); // the lifetime mark before a reset
            assertThat(r.memory().limitHits()).isEqualTo(12); // memory.events max
            assertThat(r.memory().oomKills()).isEqualTo(1);
            assertThat(r.pids().current()).isEqualTo(7);
            assertThat(r.pids().limit()).isEmpty(); // "max"
            assertThat(r.blockIo().readBytes()).isEqualTo(90_430_464L + 1_048_576L);
            assertThat(r.blockIo().writeBytes()).isEqualTo(299_008_000L + 2_097_152L);
            assertThat(r.network().receivedBytes()).isEqualTo(123_456L + 1_000L);
            assertThat(r.network().sentBytes()).isEqualTo(65_432L + 2_000L);
            assertThat(r.cpu().periods()).isEqualTo(420);
            assertThat(r.cpu().throttledPeriods()).isEqualTo(37);
            assertThat(r.cpu().throttledNanos()).isEqualTo(912_345_000L); // throttled_usec x 1000
            assertThat(r.pressure()).contains(new PressureTotals(1_500_000, 250_000, 3000, 1000, 777, 555));
            assertThat(r.memory().workingSetBytes()).isEqualTo(125_829_120L);
            assertThat(probe.describe()).isEqualTo("cgroup v2 files under " + Fixtures.v2Dir(Fixtures.v2Root()));
        }
    }

    @Test
    @DisplayName("a fast read of an idle container (CPU time unchanged) reads nothing else; once CPU time moves, all")
    void fastRead() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path dir = Fixtures.v2Dir(root);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            RawReading full = probe.read();
            Files.writeString(dir.resolve("memory.current"), "100000000\n");
            Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 13\noom 2\noom_kill 2\n");
            Files.writeString(dir.resolve("pids.current"), "9\n");

            RawReading idle = probe.readFast(full);
            assertThat(idle.monotonicNanos()).isGreaterThan(full.monotonicNanos());
            assertThat(idle.memory()).isEqualTo(full.memory());
            assertThat(idle.pids().current()).isEqualTo(7);

            Files.writeString(dir.resolve("cpu.stat"),
                    Files.readString(dir.resolve("cpu.stat")).replace("usage_usec 8123456", "usage_usec 8123457"));
            RawReading ran = probe.readFast(idle);
            assertThat(ran.cpu().totalNanos()).isEqualTo(8_123_457_000L);
            assertThat(ran.memory().chargedBytes()).isEqualTo(100_000_000L);
            assertThat(ran.memory().limitHits()).isEqualTo(13);
            assertThat(ran.memory().oomKills()).isEqualTo(2);
            assertThat(ran.pids().current()).isEqualTo(9);
            // the rest comes from the full reading until the next one
            assertThat(ran.memory().highWaterMarkBytes()).isEqualTo(full.memory().highWaterMarkBytes());
            assertThat(ran.blockIo()).isEqualTo(full.blockIo());
        }
    }

    @Test
    @DisplayName("missing optional files (peak, pressure, io.stat, swap, pids) are empty or zero")
    void missingOptional() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path dir = Fixtures.v2Dir(root);
        for (String name : new String[] {"memory.peak", "cpu.pressure", "memory.pressure", "io.pressure",
                "io.stat", "memory.swap.current", "pids.current", "pids.max", "memory.events"}) {
            Files.delete(dir.resolve(name));
        }
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.resetHighWaterMark()).isFalse();
            RawReading r = probe.read();
            assertThat(r.memory().highWaterMarkBytes()).isEmpty();
            assertThat(r.pressure()).isEmpty();
            assertThat(r.blockIo().readBytes()).isZero();
            assertThat(r.blockIo().writeBytes()).isZero();
            assertThat(r.memory().swapBytes()).isEmpty();
            assertThat(r.pids().current()).isZero();
            assertThat(r.pids().limit()).isEmpty();
            assertThat(r.memory().oomKills()).isZero();
            assertThat(r.memory().limitHits()).isZero();
            assertThat(r.memory().chargedBytes()).isEqualTo(157_286_400L);
        }
    }

    @Test
    @DisplayName("cpu.pressure present but memory/io pressure missing reads those as zero")
    void partialPressure() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Files.delete(Fixtures.v2Dir(root).resolve("memory.pressure"));
        Files.delete(Fixtures.v2Dir(root).resolve("io.pressure"));
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.read().pressure()).contains(new PressureTotals(1_500_000, 250_000, 0, 0, 0, 0));
        }
    }

    @Test
    @DisplayName("a resettable memory.peak is read back through the same open file")
    void resetPeak() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path peak = Fixtures.v2Dir(root).resolve("memory.peak");
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.resetHighWaterMark()).isTrue();
            // the kernel now reports the peak since the reset; a regular file needs us to write it
            Files.writeString(peak, "52428800\n");
            assertThat(probe.read().memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(52_428_800L));
            Files.writeString(peak, "62914560\n");
            assertThat(probe.read().memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(62_914_560L));
            assertThat(probe.resetHighWaterMark()).isTrue(); // a second reset reuses the open file
        }
    }

    @Test
    @DisplayName("a memory.peak that cannot be opened for writing (read-only before 6.12): no reset, the lifetime mark")
    void peakNotWritable() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path peak = Fixtures.v2Dir(root).resolve("memory.peak");
        Files.delete(peak);
        Files.createDirectory(peak); // opening it for writing fails, as a 0444 file does for non-root users
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.resetHighWaterMark()).isFalse();
            // readable again (as a 0444 file is): the lifetime mark is reported, for the caller to judge
            Files.delete(peak);
            Files.writeString(peak, "209715200\n");
            assertThat(probe.read().memory().highWaterMarkBytes()).hasValue(209_715_200L);
        }
    }

    @Test
    @DisplayName("a deleted cgroup directory: ContainerGoneException")
    void deletedCgroup() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            deleteTree(Fixtures.v2Dir(root));
            assertThatThrownBy(probe::read).isInstanceOf(ContainerGoneException.class)
                    .hasMessageContaining("'db'");
        }
    }

    @Test
    @DisplayName("goneNow: a living init process is alive; one exiting, or a zombie, is gone, with its state")
    void goneNow() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Path stat = root.resolve("proc/" + Fixtures.V2_PID + "/stat");
        String alive = Files.readString(stat);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.goneNow()).isEmpty();
            // the same descriptor is read again: the file's new content is what the probe sees
            Files.writeString(stat, alive.replace(" 4194560 ", " 4194564 "));
            assertThat(probe.goneNow()).contains("The init process (host PID 4242) of container 'db' is "
                    + "exiting (state S, PF_EXITING)");
            Files.writeString(stat, alive.replace(" S ", " Z "));
            assertThat(probe.goneNow()).contains("The init process (host PID 4242) of container 'db' is "
                    + "a zombie (state Z), not yet reaped");
            Files.writeString(stat, "4242 (sleep) S\n");
            assertThatThrownBy(probe::goneNow).isExactlyInstanceOf(ProbeException.class)
                    .hasMessageContaining("'db'").hasMessageContaining("stat");
        }
    }

    @Test
    @DisplayName("an exited init process (no net/dev): ContainerGoneException")
    void processGone() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            deleteTree(root.resolve("proc/" + Fixtures.V2_PID));
            assertThatThrownBy(probe::read).isInstanceOf(ContainerGoneException.class)
                    .hasMessageContaining("4242");
        }
    }

    @Test
    @DisplayName("a corrupt file while the cgroup exists is a ProbeException, not 'gone'")
    void corrupt() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        Files.writeString(Fixtures.v2Dir(root).resolve("memory.current"), "lots\n");
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThatThrownBy(probe::read).isExactlyInstanceOf(ProbeException.class)
                    .hasMessageContaining("'db'").hasMessageContaining("memory.current");
        }
    }

    @Test
    @DisplayName("opening for a process that does not exist: ContainerGoneException")
    void openGone() {
        assertThatThrownBy(() -> open(Fixtures.v2Root(), 31337)).isInstanceOf(ContainerGoneException.class);
    }

    @Test
    @DisplayName("PressureFiles: no unified directory means no pressure")
    void noUnifiedDir() throws IOException {
        assertThat(PressureFiles.read(Optional.empty())).isEmpty();
    }
}
