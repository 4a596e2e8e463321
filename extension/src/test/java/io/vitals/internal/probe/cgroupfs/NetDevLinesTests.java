package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.internal.probe.Fixtures;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NetDevLines: /proc/<pid>/net/dev")
class NetDevLinesTests {

    private static final Path SOURCE = Path.of("/proc/1/net/dev");

    @Test
    @DisplayName("the recorded file: eth0 only, lo excluded")
    void recorded() throws IOException {
        Path file = Fixtures.v1Root().resolve("proc/" + Fixtures.V1_PID + "/net/dev");
        assertThat(NetDevLines.parseNetDev(Files.readString(file), file)).containsExactly(696, 0);
    }

    @Test
    @DisplayName("sums every interface except lo")
    void sumsAllButLoopback() throws IOException {
        Path file = Fixtures.v2Root().resolve("proc/" + Fixtures.V2_PID + "/net/dev");
        assertThat(NetDevLines.parseNetDev(Files.readString(file), file)).containsExactly(124456, 67432);
    }

    @Test
    @DisplayName("numbers glued to the colon (large counters on old kernels) still parse")
    void gluedToColon() throws IOException {
        String text = "Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n"
                + "  eth0:12345678901 1 0 0 0 0 0 0 98765 2 0 0 0 0 0 0\n";
        assertThat(NetDevLines.parseNetDev(text, SOURCE)).containsExactly(12345678901L, 98765);
    }

    @Test
    @DisplayName("a truncated line names the file")
    void truncated() {
        assertThatThrownBy(() -> NetDevLines.parseNetDev("  eth0: 1 2 3\n", SOURCE))
                .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
    }
}
