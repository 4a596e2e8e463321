package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.ProbeKind;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HostCgroupProbe")
class HostCgroupProbeTests {

    private static final Instant NOW = Instant.parse("2026-11-29T15:59:17Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir
    Path temp;

    static HostCgroupProbe open(Path root, long pid) throws ProbeException {
        return HostCgroupProbe.open("db", pid, new CgroupLocator(root), root.resolve("proc"), CLOCK);
    }

    /** Descriptors this JVM holds now; Linux only, as the host probe is. */
    static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count() - 1; // the directory stream's own descriptor
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }

    @Nested
    @DisplayName("cgroup v1 hybrid (recorded)")
    class V1 {

        @Test
        @DisplayName("every field equals the recorded files")
        void everyField() throws ProbeException {
            try (HostCgroupProbe probe = open(Fixtures.v1Root(), Fixtures.V1_PID)) {
                long before = System.nanoTime();
                RawReading r = probe.read();
                assertThat(probe.kind()).isEqualTo(ProbeKind.HOST_CGROUP_V1);
                assertThat(r.monotonicNanos()).isBetween(before, System.nanoTime());
                assertThat(r.wallTime()).isEqualTo(NOW);
                assertThat(r.cpu().totalNanos()).isEqualTo(422_699_666L); // cpuacct.usage, ns
                assertThat(r.cpu().userNanos()).isEqualTo(28 * 10_000_000L); // cpuacct.stat ticks x 10 ms
                assertThat(r.cpu().systemNanos()).isEqualTo(13 * 10_000_000L);
                assertThat(r.cpu().hostNanos()).isEmpty();
                assertThat(r.cpu().onlineCpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
                assertThat(r.memory().chargedBytes()).isEqualTo(43_745_280L);
                assertThat(r.memory().inactiveFileBytes()).isEqualTo(41_992_192L); // total_inactive_file
                assertThat(r.memory().pageCacheBytes()).isEqualTo(41_996_288L); // total_cache
                assertThat(r.memory().anonymousBytes()).isEqualTo(208_896L); // total_rss
                assertThat(r.memory().swapBytes()).isEqualTo(OptionalLong.of(0)); // total_swap
                assertThat(r.memory().limitBytes()).isEqualTo(OptionalLong.of(268_435_456L));
                assertThat(r.memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(44_900_352L));
                assertThat(r.memory().limitHits()).isZero();
                assertThat(r.memory().oomKills()).isZero();
                assertThat(r.pids().current()).isEqualTo(2);
                assertThat(r.pids().limit()).isEqualTo(OptionalLong.of(100));
                assertThat(r.blockIo().readBytes()).isZero(); // only "Total 0"
                assertThat(r.blockIo().writeBytes()).isZero();
                assertThat(r.network().receivedBytes()).isEqualTo(696);
                assertThat(r.network().sentBytes()).isZero();
                assertThat(r.cpu().periods()).isEqualTo(9);
                assertThat(r.cpu().throttledPeriods()).isZero();
                assertThat(r.cpu().throttledNanos()).isZero();
                assertThat(r.pressure()).contains(new PressureTotals(45255, 40122, 0, 0, 88, 88));
                assertThat(r.memory().workingSetBytes()).isEqualTo(43_745_280L - 41_992_192L);
                assertThat(probe.describe()).startsWith("cgroup v1 files under ")
                        .endsWith("(pressure from the v2 hierarchy)");
                assertThat(probe.minimumInterval()).isPositive();
            }
        }

        @Test
        @DisplayName("throttled_time is ns, oom_kill and failcnt are read, unlimited is empty")
        void unitsAndCounters() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            Path memory = Fixtures.v1Dir(root, "memory");
            Files.writeString(Fixtures.v1Dir(root, "cpu").resolve("cpu.stat"),
                    "nr_periods 500\nnr_throttled 40\nthrottled_time 123456789\nnr_bursts 0\nburst_time 0\n");
            Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
            Files.writeString(memory.resolve("memory.failcnt"), "17\n");
            Files.writeString(memory.resolve("memory.limit_in_bytes"), "9223372036854771712\n");
            Files.writeString(Fixtures.v1Dir(root, "pids").resolve("pids.max"), "max\n");
            Files.writeString(Fixtures.v1Dir(root, "blkio").resolve("blkio.throttle.io_service_bytes"),
                    "8:0 Read 4096000\n8:0 Write 1228800\n8:0 Sync 5324800\n8:0 Async 0\n8:0 Total 5324800\n"
                            + "Total 5324800\n");
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                RawReading r = probe.read();
                assertThat(r.cpu().periods()).isEqualTo(500);
                assertThat(r.cpu().throttledPeriods()).isEqualTo(40);
                assertThat(r.cpu().throttledNanos()).isEqualTo(123_456_789L);
                assertThat(r.memory().oomKills()).isEqualTo(3);
                assertThat(r.memory().limitHits()).isEqualTo(17);
                assertThat(r.memory().limitBytes()).isEmpty();
                assertThat(r.pids().limit()).isEmpty();
                assertThat(r.blockIo().readBytes()).isEqualTo(4_096_000L);
                assertThat(r.blockIo().writeBytes()).isEqualTo(1_228_800L);
            }
        }

        @Test
        @DisplayName("the *_recursive blkio file wins when it has device lines")
        void recursiveBlkio() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            Path blkio = Fixtures.v1Dir(root, "blkio");
            Files.writeString(blkio.resolve("blkio.io_service_bytes_recursive"), "8:0 Read 10\n8:0 Write 20\nTotal 30\n");
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                assertThat(probe.read().blockIo().readBytes()).isEqualTo(10);
            }
            Files.writeString(blkio.resolve("blkio.io_service_bytes_recursive"), "Total 0\n");
            Files.writeString(blkio.resolve("blkio.throttle.io_service_bytes"), "8:0 Read 5\nTotal 5\n");
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                assertThat(probe.read().blockIo().readBytes()).isEqualTo(5);
            }
        }

        @Test
        @DisplayName("missing optional files (pressure, blkio, oom_control, max_usage) are empty or zero")
        void missingOptional() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            Path unified = Fixtures.v1Dir(root, "unified");
            Files.delete(unified.resolve("cpu.pressure"));
            Files.delete(Fixtures.v1Dir(root, "blkio").resolve("blkio.throttle.io_service_bytes"));
            Path memory = Fixtures.v1Dir(root, "memory");
            Files.delete(memory.resolve("memory.oom_control"));
            Files.delete(memory.resolve("memory.max_usage_in_bytes"));
            Files.delete(memory.resolve("memory.failcnt"));
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                RawReading r = probe.read();
                assertThat(r.pressure()).isEmpty();
                assertThat(r.blockIo().readBytes()).isZero();
                assertThat(r.memory().oomKills()).isZero();
                assertThat(r.memory().limitHits()).isZero();
                assertThat(r.memory().highWaterMarkBytes()).isEmpty();
                assertThat(r.memory().chargedBytes()).isEqualTo(43_745_280L);
            }
        }

        @Test
        @DisplayName("a fast read refreshes usage, CPU time, PIDs and OOM kills and carries the rest over")
        void fastRead() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            Path memory = Fixtures.v1Dir(root, "memory");
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                RawReading full = probe.read();
                Files.writeString(memory.resolve("memory.usage_in_bytes"), "50000000\n");
                Files.writeString(memory.resolve("memory.max_usage_in_bytes"), "60000000\n");
                Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
                Files.writeString(Fixtures.v1Dir(root, "cpuacct").resolve("cpuacct.usage"), "999000000\n");
                Files.writeString(Fixtures.v1Dir(root, "pids").resolve("pids.current"), "9\n");
                Files.writeString(Fixtures.v1Dir(root, "blkio").resolve("blkio.throttle.io_service_bytes"),
                        "8:0 Read 4096\n8:0 Write 8192\nTotal 12288\n");
                Files.writeString(memory.resolve("memory.stat"), Files.readString(memory.resolve("memory.stat"))
                        .replace("total_inactive_file 41992192", "total_inactive_file 1000"));

                RawReading fast = probe.readFast(full);
                assertThat(fast.monotonicNanos()).isGreaterThan(full.monotonicNanos());
                assertThat(fast.memory().chargedBytes()).isEqualTo(50_000_000L);
                assertThat(fast.cpu().totalNanos()).isEqualTo(999_000_000L);
                assertThat(fast.pids().current()).isEqualTo(9);
                assertThat(fast.memory().oomKills()).isEqualTo(2);
                // the rest comes from the full reading until the next one
                assertThat(fast.memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(44_900_352L));
                assertThat(fast.memory().inactiveFileBytes()).isEqualTo(41_992_192L);
                assertThat(fast.blockIo().readBytes()).isZero();
                assertThat(fast.cpu().userNanos()).isEqualTo(full.cpu().userNanos());
                assertThat(fast.network().receivedBytes()).isEqualTo(696);
                assertThat(fast.pressure()).isEqualTo(full.pressure());

                RawReading next = probe.read();
                assertThat(next.memory().inactiveFileBytes()).isEqualTo(1000);
                assertThat(next.blockIo().readBytes()).isEqualTo(4096);
                assertThat(next.blockIo().writeBytes()).isEqualTo(8192);
                assertThat(next.memory().chargedBytes()).isEqualTo(50_000_000L);
                assertThat(next.memory().highWaterMarkBytes()).isEqualTo(OptionalLong.of(60_000_000L));
            }
        }

        @Test
        @DisplayName("a fast read of an idle container (CPU time unchanged) reads nothing else; once CPU time moves, all")
        void idleFastRead() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            Path memory = Fixtures.v1Dir(root, "memory");
            Path cpuacct = Fixtures.v1Dir(root, "cpuacct");
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                RawReading full = probe.read();
                // files changed behind the CPU counter's back: no task ran, so these cannot have moved for real
                Files.writeString(memory.resolve("memory.usage_in_bytes"), "40000000\n");
                Files.writeString(memory.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
                Files.writeString(Fixtures.v1Dir(root, "pids").resolve("pids.current"), "9\n");

                RawReading idle = probe.readFast(full);
                assertThat(idle.cpu().totalNanos()).isEqualTo(full.cpu().totalNanos());
                assertThat(idle.monotonicNanos()).isGreaterThan(full.monotonicNanos());
                assertThat(idle.memory()).isEqualTo(full.memory());
                assertThat(idle.pids()).isEqualTo(full.pids());

                Files.writeString(cpuacct.resolve("cpuacct.usage"), (full.cpu().totalNanos() + 1) + "\n");
                RawReading ran = probe.readFast(idle);
                assertThat(ran.cpu().totalNanos()).isEqualTo(full.cpu().totalNanos() + 1);
                assertThat(ran.memory().chargedBytes()).isEqualTo(40_000_000L);
                assertThat(ran.pids().current()).isEqualTo(9);
                assertThat(ran.memory().oomKills()).isEqualTo(2);
            }
        }

        @Test
        @DisplayName("a fast read of a deleted cgroup: ContainerGoneException")
        void fastReadOfDeletedCgroup() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                RawReading full = probe.read();
                deleteTree(Fixtures.v1Dir(root, "memory"));
                // a regular file kept open still reads; the next full read (every few ticks) notices
                probe.readFast(full);
                assertThatThrownBy(probe::read).isInstanceOf(ContainerGoneException.class).hasMessageContaining("'db'");
            }
        }

        @Test
        @DisplayName("every file is opened once and closed with the probe: no descriptor leaks")
        void descriptorsClosed() throws Exception {
            long before = openDescriptors();
            HostCgroupProbe probe = open(Fixtures.v1Root(), Fixtures.V1_PID);
            long opened = openDescriptors() - before;
            for (int i = 0; i < 50; i++) {
                RawReading full = probe.read();
                probe.readFast(full);
            }
            // the 17 files of the recorded container (net/dev, stat, 6 memory, 2 cpuacct, cpu, blkio, 2 pids,
            // 3 pressure); reading opens no more
            assertThat(opened).isEqualTo(17);
            assertThat(openDescriptors() - before).isEqualTo(opened);
            probe.close();
            assertThat(openDescriptors()).isEqualTo(before);
        }

        @Test
        @DisplayName("resetting the high-water mark writes max_usage_in_bytes")
        void reset() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                assertThat(probe.resetHighWaterMark()).isTrue();
                assertThat(Files.readString(Fixtures.v1Dir(root, "memory").resolve("memory.max_usage_in_bytes")))
                        .isEqualTo("0");
            }
        }

        @Test
        @DisplayName("a deleted cgroup directory: ContainerGoneException")
        void deletedCgroup() throws Exception {
            Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
            try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
                deleteTree(Fixtures.v1Dir(root, "memory"));
                assertThatThrownBy(probe::read).isInstanceOf(ContainerGoneException.class)
                        .hasMessageContaining("'db'");
            }
        }
    }

    @Nested
    @DisplayName("cgroup v2 systemd (hand-written)")
    class V2 {

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
    }

    @Test
    @DisplayName("PressureFiles: no unified directory means no pressure")
    void noUnifiedDir() throws IOException {
        assertThat(PressureFiles.read(Optional.empty())).isEmpty();
    }
}
