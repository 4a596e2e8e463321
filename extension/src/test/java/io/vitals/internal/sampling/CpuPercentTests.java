package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vitals.internal.probe.RawReading;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("CpuPercent")
class CpuPercentTests {

    @Nested
    @DisplayName("docker's formula (system CPU present)")
    class Docker {

        @Test
        @DisplayName("2 s of CPU in a 1 s window on 8 CPUs is 200 %")
        void factSheetExample() {
            RawReading previous = Readings.atMillis(0).cpu(10_000_000_000L).systemCpu(1_000_000_000_000L).cpus(8)
                    .build();
            RawReading current = Readings.atMillis(1000).cpu(12_000_000_000L).systemCpu(1_008_000_000_000L)
                    .cpus(8).build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(200.0, within(1e-9));
        }

        @Test
        @DisplayName("the recorded v1 pair (no CPU used) is 0 %")
        void noCpu() {
            RawReading previous = Readings.atMillis(0).cpu(422_699_666L).systemCpu(1_192_610_000_000L).cpus(2)
                    .build();
            RawReading current = Readings.atMillis(1007).cpu(422_699_666L).systemCpu(1_194_620_000_000L).cpus(2)
                    .build();
            assertThat(CpuPercent.between(previous, current)).isZero();
        }

        @Test
        @DisplayName("only the current reading's online CPUs count")
        void currentCpus() {
            RawReading previous = Readings.atMillis(0).cpu(0).systemCpu(0).cpus(2).build();
            RawReading current = Readings.atMillis(1000).cpu(1_000_000_000L).systemCpu(4_000_000_000L).cpus(4)
                    .build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(100.0, within(1e-9));
        }

        @Test
        @DisplayName("the system figure wins over wall time")
        void systemWins() {
            RawReading previous = Readings.atMillis(0).cpu(0).systemCpu(0).cpus(4).build();
            // 0.5 s CPU, host advanced 4 CPU-seconds (1 s on 4 CPUs) though the readings are 2 s apart
            RawReading current = Readings.atMillis(2000).cpu(500_000_000L).systemCpu(4_000_000_000L).cpus(4)
                    .build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(50.0, within(1e-9));
        }
    }

    @Nested
    @DisplayName("wall-clock formula (host readings)")
    class WallClock {

        @ParameterizedTest(name = "{0} ns CPU in {1} ms is {2} %")
        @CsvSource({"50000000, 100, 50", "100000000, 50, 200", "1000000000, 1000, 100", "1, 1000, 0.0000001"})
        void wall(long cpuNanos, long millis, double expected) {
            RawReading previous = Readings.atMillis(5000).cpu(7_000_000L).build();
            RawReading current = Readings.atMillis(5000 + millis).cpu(7_000_000L + cpuNanos).build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(expected, within(1e-9));
        }

        @Test
        @DisplayName("system CPU present on only one reading falls back to wall time")
        void oneSided() {
            RawReading previous = Readings.atMillis(0).cpu(0).build();
            RawReading current = Readings.atMillis(100).cpu(100_000_000L).systemCpu(5).build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(100.0, within(1e-9));
        }

        @Test
        @DisplayName("a non-advancing system figure falls back to wall time")
        void systemStuck() {
            RawReading previous = Readings.atMillis(0).cpu(0).systemCpu(7).build();
            RawReading current = Readings.atMillis(100).cpu(50_000_000L).systemCpu(7).build();
            assertThat(CpuPercent.between(previous, current)).isCloseTo(50.0, within(1e-9));
        }
    }

    @ParameterizedTest(name = "cpu {0} -> {1}, wall {2} ms: 0 %")
    @CsvSource({"100, 100, 10", "100, 50, 10", "0, 100, 0", "0, 100, -5"})
    @DisplayName("no CPU used, a counter going backwards, or no time passing: 0 %")
    void zero(long cpuBefore, long cpuAfter, long millis) {
        RawReading previous = Readings.atMillis(100).cpu(cpuBefore).build();
        RawReading current = Readings.atMillis(100 + millis).cpu(cpuAfter).build();
        assertThat(CpuPercent.between(previous, current)).isZero();
    }
}
