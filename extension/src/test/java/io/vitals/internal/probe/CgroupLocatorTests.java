package io.vitals.internal.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("CgroupLocator")
class CgroupLocatorTests {

    private static final String ID = "3f2c0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab";
    private static final Path ROOT = Path.of("/fixture-root");

    private static final String V1_CGROUPFS_MOUNTS = String.join("\n",
            "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
            "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup "
                    + "rw,cpu,cpuacct",
            "35 31 0:32 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:14 - cgroup cgroup rw,memory",
            "38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio",
            "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
            "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd",
            "");

    private final CgroupLocator locator = new CgroupLocator(ROOT);

    private CgroupLayout layout(String mountinfo, String membership) throws ProbeException {
        return locator.layoutOf(locator.parseMountinfo(mountinfo), membership);
    }

    private static Path under(String absolute) {
        return ROOT.resolve(absolute.substring(1));
    }

    @Nested
    @DisplayName("cgroup v1")
    class V1 {

        @Test
        @DisplayName("cgroupfs driver with combined cpu,cpuacct")
        void cgroupfs() throws ProbeException {
            CgroupLayout layout = layout(V1_CGROUPFS_MOUNTS, String.join("\n",
                    "12:pids:/docker/" + ID,
                    "9:memory:/docker/" + ID,
                    "7:blkio:/docker/" + ID,
                    "4:cpu,cpuacct:/docker/" + ID,
                    "1:name=systemd:/docker/" + ID, ""));
            assertThat(layout.unifiedOnly()).isFalse();
            assertThat(layout.unifiedDir()).isEmpty();
            assertThat(layout.v1Controllers()).containsOnly(
                    Map.entry("memory", under("/sys/fs/cgroup/memory/docker/" + ID)),
                    Map.entry("cpu", under("/sys/fs/cgroup/cpu,cpuacct/docker/" + ID)),
                    Map.entry("cpuacct", under("/sys/fs/cgroup/cpu,cpuacct/docker/" + ID)),
                    Map.entry("blkio", under("/sys/fs/cgroup/blkio/docker/" + ID)),
                    Map.entry("pids", under("/sys/fs/cgroup/pids/docker/" + ID)));
            assertThat(layout.describe()).startsWith("cgroup v1 files under " + under("/sys/fs/cgroup"))
                    .doesNotContain("pressure");
        }

        @Test
        @DisplayName("systemd driver: /system.slice/docker-<id>.scope")
        void systemd() throws ProbeException {
            String path = "/system.slice/docker-" + ID + ".scope";
            CgroupLayout layout = layout(V1_CGROUPFS_MOUNTS, String.join("\n",
                    "9:memory:" + path, "4:cpu,cpuacct:" + path, "12:pids:" + path, "7:blkio:" + path));
            assertThat(layout.controller("memory")).contains(under("/sys/fs/cgroup/memory" + path));
            assertThat(layout.controller("cpuacct")).contains(under("/sys/fs/cgroup/cpu,cpuacct" + path));
        }

        @Test
        @DisplayName("controllers absent from the mounts are left out, memory alone suffices")
        void onlyMemory() throws ProbeException {
            CgroupLayout layout = layout(
                    "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
                    "9:memory:/docker/" + ID + "\n4:cpu,cpuacct:/docker/" + ID + "\n");
            assertThat(layout.v1Controllers()).containsOnlyKeys("memory");
        }

        @Test
        @DisplayName("without the memory controller: a clear ProbeException")
        void missingMemory() {
            String mounts = V1_CGROUPFS_MOUNTS.lines().filter(line -> !line.contains("rw,memory"))
                    .reduce("", (a, b) -> a + b + "\n");
            assertThatThrownBy(() -> layout(mounts, "9:memory:/docker/" + ID + "\n4:cpu,cpuacct:/docker/" + ID))
                    .isExactlyInstanceOf(ProbeException.class)
                    .hasMessageContaining("memory controller is not mounted")
                    .hasMessageContaining("cpu");
        }
    }

    @Nested
    @DisplayName("cgroup v2")
    class V2 {

        private static final String MOUNTS = "26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
                + "shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"/system.slice/docker-" + ID + ".scope", "/docker/" + ID})
        void unified(String path) throws ProbeException {
            CgroupLayout layout = layout(MOUNTS, "0::" + path + "\n");
            assertThat(layout.unifiedOnly()).isTrue();
            assertThat(layout.v1Controllers()).isEmpty();
            assertThat(layout.unifiedDir()).contains(under("/sys/fs/cgroup" + path));
            assertThat(layout.describe()).isEqualTo("cgroup v2 files under " + under("/sys/fs/cgroup" + path));
        }

        @Test
        @DisplayName("Podman: the libpod scope, which carries the limits, not its 'container' child")
        void podmanScope() throws ProbeException {
            String scope = "/machine.slice/libpod-" + ID + ".scope";
            assertThat(layout(MOUNTS, "0::" + scope + "/container\n").unifiedDir())
                    .contains(under("/sys/fs/cgroup" + scope));
            // a child named "container" of anything else is the container's own cgroup
            assertThat(layout(MOUNTS, "0::/system.slice/docker-" + ID + ".scope/container\n").unifiedDir())
                    .contains(under("/sys/fs/cgroup/system.slice/docker-" + ID + ".scope/container"));
        }

        @Test
        @DisplayName("the (deleted) suffix of a zombie's cgroup is dropped")
        void deleted() throws ProbeException {
            CgroupLayout layout = layout(MOUNTS, "0::/docker/" + ID + " (deleted)\n");
            assertThat(layout.unifiedDir()).contains(under("/sys/fs/cgroup/docker/" + ID));
        }

        @Test
        @DisplayName("the root cgroup is the mount point itself")
        void rootCgroup() throws ProbeException {
            assertThat(layout(MOUNTS, "0::/\n").unifiedDir()).contains(under("/sys/fs/cgroup"));
        }

        @Test
        @DisplayName("no cgroup mount at all: a clear ProbeException")
        void noMount() {
            assertThatThrownBy(() -> layout("28 1 259:2 / / rw - ext4 /dev/sda rw\n", "0::/docker/" + ID))
                    .isExactlyInstanceOf(ProbeException.class).hasMessageContaining("is /sys/fs/cgroup mounted?");
        }
    }

    @Nested
    @DisplayName("hybrid")
    class Hybrid {

        @Test
        @DisplayName("v1 controllers plus the cgroup2 mount at /sys/fs/cgroup/unified for pressure")
        void hybrid() throws ProbeException {
            String mounts = V1_CGROUPFS_MOUNTS
                    + "41 31 0:38 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n";
            CgroupLayout layout = layout(mounts, "9:memory:/docker/" + ID + "\n0::/docker/" + ID + "\n");
            assertThat(layout.unifiedOnly()).isFalse();
            assertThat(layout.controller("memory")).contains(under("/sys/fs/cgroup/memory/docker/" + ID));
            assertThat(layout.unifiedDir()).contains(under("/sys/fs/cgroup/unified/docker/" + ID));
            assertThat(layout.describe()).endsWith("(pressure from the v2 hierarchy)");
        }

        @Test
        @DisplayName("the recorded host: separate cpu and cpuacct mounts")
        void recorded() throws ProbeException {
            Path root = Fixtures.v1Root();
            CgroupLayout layout = new CgroupLocator(root).locate(Fixtures.V1_PID);
            assertThat(layout.unifiedOnly()).isFalse();
            for (String controller : List.of("memory", "cpu", "cpuacct", "blkio", "pids")) {
                assertThat(layout.controller(controller)).as(controller)
                        .contains(Fixtures.v1Dir(root, controller));
            }
            assertThat(layout.unifiedDir()).contains(Fixtures.v1Dir(root, "unified"));
        }
    }

    @Nested
    @DisplayName("mount roots")
    class MountRoots {

        @Test
        @DisplayName("a mount whose root is a cgroup-namespace root strips that prefix")
        void namespaceRoot() throws ProbeException {
            String mounts = "26 22 0:24 /docker/outer /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
            CgroupLayout layout = layout(mounts, "0::/docker/outer/inner\n");
            assertThat(layout.unifiedDir()).contains(under("/sys/fs/cgroup/inner"));
        }

        @Test
        @DisplayName("a v1 mount root other than /")
        void v1Root() throws ProbeException {
            String mounts = "35 31 0:32 /kubepods /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
            CgroupLayout layout = layout(mounts, "9:memory:/kubepods/pod1/" + ID + "\n");
            assertThat(layout.controller("memory")).contains(under("/sys/fs/cgroup/memory/pod1/" + ID));
        }

        @Test
        @DisplayName("a root is stripped only at a path-segment boundary")
        void segmentBoundary() throws ProbeException {
            String mounts = "26 22 0:24 /docker /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
            CgroupLayout layout = layout(mounts, "0::/docker-ce/" + ID + "\n");
            assertThat(layout.unifiedDir()).contains(under("/sys/fs/cgroup/docker-ce/" + ID));
        }

        @Test
        @DisplayName("escaped spaces in the mount point are unescaped")
        void escaped() throws ProbeException {
            String mounts = "26 22 0:24 / /mnt/my\\040cgroups rw - cgroup2 cgroup2 rw\n";
            assertThat(layout(mounts, "0::/a\n").unifiedDir()).contains(under("/mnt/my cgroups/a"));
        }
    }

    @Nested
    @DisplayName("locate")
    class Locate {

        @Test
        @DisplayName("a process that does not exist: ContainerGoneException")
        void noSuchProcess() {
            assertThatThrownBy(() -> new CgroupLocator(Fixtures.v2Root()).locate(999_999))
                    .isInstanceOf(ContainerGoneException.class).hasMessageContaining("999999");
        }

        @Test
        @DisplayName("the hand-written v2 tree")
        void v2() throws ProbeException {
            Path root = Fixtures.v2Root();
            CgroupLayout layout = new CgroupLocator(root).locate(Fixtures.V2_PID);
            assertThat(layout.unifiedOnly()).isTrue();
            assertThat(layout.unifiedDir()).contains(Fixtures.v2Dir(root));
        }

        @Test
        @DisplayName("no mountinfo: ProbeException naming it")
        void noMountinfo(@TempDir Path root) throws IOException {
            Files.createDirectories(root.resolve("proc/1"));
            Files.writeString(root.resolve("proc/1/cgroup"), "0::/\n");
            assertThatThrownBy(() -> new CgroupLocator(root).locate(1))
                    .isExactlyInstanceOf(ProbeException.class).hasMessageContaining("mountinfo");
        }

        @Test
        @DisplayName("a malformed /proc/<pid>/cgroup line: ProbeException")
        void malformed() {
            assertThatThrownBy(() -> layout(V1_CGROUPFS_MOUNTS, "garbage\n"))
                    .isExactlyInstanceOf(ProbeException.class).hasMessageContaining("'garbage'");
        }
    }
}
