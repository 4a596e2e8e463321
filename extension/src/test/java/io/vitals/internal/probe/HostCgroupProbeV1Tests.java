package io.vitals.internal.probe;

import static io.vitals.internal.probe.HostCgroupProbes.NOW;
import static io.vitals.internal.probe.HostCgroupProbes.deleteTree;
import static io.vitals.internal.probe.HostCgroupProbes.descriptorsOn;
import static io.vitals.internal.probe.HostCgroupProbes.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.ProbeKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HostCgroupProbe, cgroup v1 hybrid (recorded)")
class HostCgroupProbeV1Tests {

    @TempDir
    Path temp;

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
        // counted on the recorded tree: a count of all the JVM's descriptors moved with other tests' leftovers
        long before = descriptorsOn(Fixtures.v1Root());
        HostCgroupProbe probe = open(Fixtures.v1Root(), Fixtures.V1_PID);
        long opened = descriptorsOn(Fixtures.v1Root()) - before;
        for (int i = 0; i < 50; i++) {
            RawReading full = probe.read();
            probe.readFast(full);
        }
        // the 17 files of the recorded container (net/dev, stat, 6 memory, 2 cpuacct, cpu, blkio, 2 pids,
        // 3 pressure); reading opens no more
        assertThat(opened).isEqualTo(17);
        assertThat(descriptorsOn(Fixtures.v1Root()) - before).isEqualTo(opened);
        probe.close();
        assertThat(descriptorsOn(Fixtures.v1Root())).isEqualTo(before);
    }

    @Test
    @DisplayName("resetting the high-water mark writes max_usage_in_bytes, through one descriptor the probe closes")
    void reset() throws Exception {
        Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root"));
        Path maxUsage = Fixtures.v1Dir(root, "memory").resolve("memory.max_usage_in_bytes");
        HostCgroupProbe probe = open(root, Fixtures.V1_PID);
        // counted on the file itself: a count of all this JVM's descriptors moved with other tests' leftovers
        assertThat(descriptorsOn(maxUsage)).as("the read descriptor").isEqualTo(1);
        assertThat(probe.resetHighWaterMark()).isTrue();
        assertThat(Files.readString(maxUsage)).isEqualTo("0");
        assertThat(probe.resetHighWaterMark()).isTrue(); // a second reset reuses the open file
        assertThat(descriptorsOn(maxUsage)).as("the read and the reset descriptor").isEqualTo(2);
        probe.close();
        assertThat(descriptorsOn(maxUsage)).isZero();
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
