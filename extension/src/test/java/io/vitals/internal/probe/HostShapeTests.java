package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host shape (the row of docs/metrics.md's exactness table) each probe reports, on the recorded v1 tree and on
 * the v2 tree as each kernel and user would show it: the kernel release and user id come from the tree's
 * {@code proc/sys/kernel/osrelease} and {@code proc/self/status}, rewritten in a copy where a test needs others.
 */
@DisplayName("HostShape")
class HostShapeTests {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T15:59:17Z"), ZoneOffset.UTC);
    private static final String ROOT = "Uid:\t0\t0\t0\t0\n";
    private static final String USER = "Uid:\t1000\t1000\t1000\t1000\n";

    @TempDir
    Path temp;

    private Path copy(Path fixture, String kernel, String status) throws IOException {
        Path root = Fixtures.copy(fixture, temp.resolve("root"));
        Files.writeString(root.resolve("proc/sys/kernel/osrelease"), kernel + "\n");
        Files.writeString(root.resolve("proc/self/status"), status);
        return root;
    }

    private static HostCgroupProbe open(Path root, long pid) throws ProbeException {
        return HostCgroupProbe.open("db", pid, new CgroupLocator(root), root.resolve("proc"), CLOCK);
    }

    /** Makes the reset fail as a read-only memory.peak does (before 6.12, or for non-root users on 6.12). */
    private static void refuseReset(HostCgroupProbe probe, Path root) throws Exception {
        Path peak = Fixtures.v2Dir(root).resolve("memory.peak");
        Files.delete(peak);
        Files.createDirectory(peak);
        assertThat(probe.resetHighWaterMark()).isFalse();
        Files.delete(peak);
        Files.writeString(peak, "209715200\n");
    }

    @Test
    @DisplayName("cgroup v1 as recorded (hybrid, root, kernel 6.18): cgroup-v1-root, mark resettable")
    void v1Root() throws Exception {
        Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("root")); // the reset writes max_usage_in_bytes
        try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
            assertThat(probe.resetHighWaterMark()).isTrue();
            HostShape shape = probe.hostShape();
            assertThat(shape.id()).isEqualTo("cgroup-v1-root");
            assertThat(shape.label()).isEqualTo("cgroup v1, root");
            assertThat(shape.cgroup()).contains("v1");
            assertThat(shape.kernel()).contains("6.18.44-fc-v857");
            assertThat(shape.root()).contains(true);
            assertThat(shape.engine()).contains("docker");
            assertThat(shape.peakResettable()).isTrue();
        }
    }

    @Test
    @DisplayName("cgroup v1, non-root: cgroup-v1-nonroot")
    void v1NonRoot() throws Exception {
        Path root = copy(Fixtures.v1Root(), "6.18.44-fc-v857", USER);
        try (HostCgroupProbe probe = open(root, Fixtures.V1_PID)) {
            assertThat(probe.hostShape().row()).isEqualTo(HostShape.Row.CGROUP_V1_NON_ROOT);
            assertThat(probe.hostShape().root()).contains(false);
        }
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.1, non-root as the tree has it: no resettable memory.peak, cgroup-v2-6.1-nonroot")
    void v2Kernel61NonRoot() throws Exception {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve("root"));
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            refuseReset(probe, root);
            HostShape shape = probe.hostShape();
            assertThat(shape.id()).isEqualTo("cgroup-v2-6.1-nonroot");
            assertThat(shape.label()).isEqualTo("cgroup v2, kernel 6.1, non-root");
            assertThat(shape.cgroup()).contains("v2");
            assertThat(shape.kernel()).contains("6.1.0-27-cloud-amd64");
            assertThat(shape.root()).contains(false);
            assertThat(shape.peakResettable()).isFalse();
        }
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.1, root: the reset fails even for root, cgroup-v2-6.1-root")
    void v2Kernel61Root() throws Exception {
        Path root = copy(Fixtures.v2Root(), "6.1.0-27-cloud-amd64", ROOT);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            refuseReset(probe, root);
            assertThat(probe.hostShape().id()).isEqualTo("cgroup-v2-6.1-root");
        }
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.12, root: memory.peak reset per open file, cgroup-v2-6.12-root")
    void v2Kernel612Root() throws Exception {
        Path root = copy(Fixtures.v2Root(), "6.12.48+deb13-amd64", ROOT);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.resetHighWaterMark()).isTrue();
            assertThat(probe.hostShape().id()).isEqualTo("cgroup-v2-6.12-root");
            assertThat(probe.hostShape().kernel()).contains("6.12.48+deb13-amd64");
            assertThat(probe.hostShape().peakResettable()).isTrue();
        }
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.12, non-root: writable by root only, so not resettable, yet the 6.12 row")
    void v2Kernel612NonRoot() throws Exception {
        Path root = copy(Fixtures.v2Root(), "6.12.48+deb13-amd64", USER);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            refuseReset(probe, root);
            assertThat(probe.hostShape().id()).isEqualTo("cgroup-v2-6.12-nonroot");
            assertThat(probe.hostShape().peakResettable()).isFalse();
        }
    }

    @Test
    @DisplayName("a reset that worked proves 6.12 even where the release does not parse")
    void resetProvesKernel() throws Exception {
        Path root = copy(Fixtures.v2Root(), "custom", ROOT);
        try (HostCgroupProbe probe = open(root, Fixtures.V2_PID)) {
            assertThat(probe.resetHighWaterMark()).isTrue();
            assertThat(probe.hostShape().row()).isEqualTo(HostShape.Row.CGROUP_V2_6_12_ROOT);
        }
    }

    @Test
    @DisplayName("a Podman scope (libpod-<id>.scope): a Podman row, rootful or rootless, whatever the cgroup version")
    void podman() {
        CgroupLayout layout = new CgroupLayout(true, Map.of(),
                Optional.of(Path.of("/sys/fs/cgroup/machine.slice/libpod-3f2c9e0d8b7a.scope")));
        assertThat(layout.engine()).isEqualTo("podman");
        assertThat(HostShape.ofCgroup(true, layout.engine(), true, new HostFacts(Optional.of("6.12.48"), true)).id())
                .isEqualTo("podman");
        HostShape shape = HostShape.ofCgroup(true, layout.engine(), false,
                new HostFacts(Optional.of("6.12.48"), false));
        assertThat(shape.id()).isEqualTo("podman-rootless");
        assertThat(shape.label()).isEqualTo("Podman, rootless");
        assertThat(shape.engine()).contains("podman");
        assertThat(shape.cgroup()).contains("v2");
    }

    @Test
    @DisplayName("the Engine API: the remote row, with nothing known of the engine's host")
    void engineApi() {
        EngineApiProbe probe = new EngineApiProbe(null, null, Fixtures.V1_ID, "db", OptionalLong.empty(), CLOCK);
        HostShape shape = probe.hostShape();
        assertThat(shape.id()).isEqualTo("engine-api");
        assertThat(shape.label()).isEqualTo("remote Engine API");
        assertThat(shape.cgroup()).isEmpty();
        assertThat(shape.kernel()).isEmpty();
        assertThat(shape.root()).isEmpty();
        assertThat(shape.engine()).isEmpty();
        assertThat(shape.peakResettable()).isFalse();
    }

    @Test
    @DisplayName("HostFacts compares kernel releases by major and minor")
    void kernelAtLeast() {
        assertThat(new HostFacts(Optional.of("6.12.0"), true).kernelAtLeast(6, 12)).isTrue();
        assertThat(new HostFacts(Optional.of("6.18.44-fc-v857"), true).kernelAtLeast(6, 12)).isTrue();
        assertThat(new HostFacts(Optional.of("7.0.1"), true).kernelAtLeast(6, 12)).isTrue();
        assertThat(new HostFacts(Optional.of("6.1.0-27-cloud-amd64"), true).kernelAtLeast(6, 12)).isFalse();
        assertThat(new HostFacts(Optional.of("5.15.0"), true).kernelAtLeast(6, 12)).isFalse();
        assertThat(new HostFacts(Optional.empty(), true).kernelAtLeast(6, 12)).isFalse();
    }
}
