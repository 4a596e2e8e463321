package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vitals.internal.probe.Fixtures;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("PressureLines: pressure-stall (PSI) files")
class PressureLinesTests {

    private static final Path SOURCE = Path.of("/sys/fs/cgroup/test/some.file");

    @TempDir
    Path dir;

    @Test
    @DisplayName("reads some and full totals in microseconds")
    void someAndFull() throws IOException {
        long[] totals = PressureLines.parsePressure("some avg10=0.13 avg60=0.05 avg300=0.01 total=45255\n"
                + "full avg10=0.06 avg60=0.02 avg300=0.00 total=40122\n", SOURCE);
        assertThat(totals).containsExactly(45255, 40122);
    }

    @Test
    @DisplayName("a missing full line (older kernels' cpu.pressure) reads as zero")
    void someOnly() throws IOException {
        assertThat(PressureLines.parsePressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=17\n", SOURCE))
                .containsExactly(17, 0);
    }

    @Test
    @DisplayName("reads the recorded cgroup v2 cpu.pressure")
    void recorded() throws IOException {
        Path file = Fixtures.v2Dir(Fixtures.v2Root()).resolve("cpu.pressure");
        assertThat(PressureLines.readPressure(file)).hasValueSatisfying(
                totals -> assertThat(totals).containsExactly(1500000, 250000));
    }

    @Test
    @DisplayName("a missing file is empty (PSI disabled)")
    void missing() throws IOException {
        assertThat(PressureLines.readPressure(dir.resolve("cpu.pressure"))).isEmpty();
    }

    @Test
    @DisplayName("an unknown line or a bad total names the file")
    void errors() {
        assertThatThrownBy(() -> PressureLines.parsePressure("most total=1\n", SOURCE))
                .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
        assertThatThrownBy(() -> PressureLines.parsePressure("some avg10=0.00 total=x\n", SOURCE))
                .isInstanceOf(IOException.class).hasMessageContaining(SOURCE.toString());
    }
}
