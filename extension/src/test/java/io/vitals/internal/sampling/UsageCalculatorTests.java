package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vitals.DataSize;
import io.vitals.PeakMemory;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("UsageCalculator")
class UsageCalculatorTests {

    private static final long MIB = Readings.MIB;
    private static final UsageCalculator.Subject SUBJECT = new UsageCalculator.Subject("db", "postgres:16",
            ProbeKind.HOST_CGROUP_V1, Duration.ofMillis(50));

    private static TimelinePoint point(long millis, long memoryMiB, double cpuPercent, long pids) {
        return new TimelinePoint(Duration.ofMillis(millis), cpuPercent, DataSize.ofMiB(memoryMiB), pids,
                Duration.ZERO, DataSize.ZERO, DataSize.ZERO, DataSize.ZERO, DataSize.ZERO);
    }

    @Test
    @DisplayName("counters are differences of the two end readings")
    void counters() {
        RawReading from = Readings.atMillis(1000).cpu(2_000_000_000L).memoryMiB(100).io(1000, 2000).net(10, 20)
                .oom(1, 5).throttled(10, 1_000_000L).limit(512 * MIB)
                .pressure(new PressureTotals(100, 50, 10, 5, 7, 3)).build();
        RawReading to = Readings.atMillis(3000).cpu(3_000_000_000L).memoryMiB(120).io(5000, 2500).net(110, 220)
                .oom(2, 9).throttled(14, 4_000_000L).limit(512 * MIB)
                .pressure(new PressureTotals(1100, 150, 10, 5, 1007, 503)).build();
        ResourceUsage usage = UsageCalculator.compute(SUBJECT, from, to, List.of(), 2, 1, Optional.empty(),
                List.of());
        assertThat(usage.container()).isEqualTo("db");
        assertThat(usage.image()).isEqualTo("postgres:16");
        assertThat(usage.probe()).isEqualTo(ProbeKind.HOST_CGROUP_V1);
        assertThat(usage.wallTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(usage.cpuTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(usage.cpuUserTime()).isEqualTo(Duration.ofMillis(750));
        assertThat(usage.cpuSystemTime()).isEqualTo(Duration.ofMillis(250));
        assertThat(usage.averageCpuPercent().value()).isCloseTo(50.0, within(1e-9));
        assertThat(usage.blockRead()).isEqualTo(DataSize.ofBytes(4000));
        assertThat(usage.blockWrite()).isEqualTo(DataSize.ofBytes(500));
        assertThat(usage.networkReceived()).isEqualTo(DataSize.ofBytes(100));
        assertThat(usage.networkSent()).isEqualTo(DataSize.ofBytes(200));
        assertThat(usage.oomKills()).isEqualTo(1);
        assertThat(usage.memoryLimitHits()).isEqualTo(4);
        assertThat(usage.throttledPeriods()).isEqualTo(4);
        assertThat(usage.throttledTime()).isEqualTo(Duration.ofMillis(3));
        assertThat(usage.memoryLimit()).contains(DataSize.ofMiB(512));
        assertThat(usage.pressureStallCpu()).contains(new PressureStall(Duration.ofMillis(1), Duration.ofNanos(100_000)));
        assertThat(usage.pressureStallMemory()).contains(new PressureStall(Duration.ZERO, Duration.ZERO));
        assertThat(usage.pressureStallIo()).contains(new PressureStall(Duration.ofMillis(1), Duration.ofNanos(500_000)));
        assertThat(usage.timeline().samples()).isEqualTo(2);
        assertThat(usage.timeline().readErrors()).isEqualTo(1);
        assertThat(usage.timeline().samplingInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(usage.before().cpuTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(usage.after().memoryUsage()).isEqualTo(DataSize.ofMiB(120));
    }

    @Test
    @DisplayName("counters that went backwards (a restarted container) count as zero, never negative")
    void backwards() {
        RawReading from = Readings.atMillis(0).cpu(5_000_000_000L).io(9000, 9000).net(9000, 9000).oom(3, 3)
                .throttled(9, 9).build();
        RawReading to = Readings.atMillis(1000).cpu(1_000_000L).io(1, 1).net(1, 1).oom(0, 0).throttled(0, 0)
                .build();
        ResourceUsage usage = UsageCalculator.compute(SUBJECT, from, to, List.of(), 2, 0, Optional.empty(),
                List.of());
        assertThat(usage.cpuTime()).isZero();
        assertThat(usage.blockRead()).isEqualTo(DataSize.ZERO);
        assertThat(usage.networkSent()).isEqualTo(DataSize.ZERO);
        assertThat(usage.oomKills()).isZero();
        assertThat(usage.memoryLimitHits()).isZero();
        assertThat(usage.throttledPeriods()).isZero();
        assertThat(usage.throttledTime()).isZero();
        assertThat(usage.averageCpuPercent().value()).isZero();
    }

    @Test
    @DisplayName("peaks come from the points when higher than both ends, with the point's offset")
    void peakFromPoints() {
        RawReading from = Readings.atMillis(0).memoryMiB(100).pids(2).build();
        RawReading to = Readings.atMillis(1000).memoryMiB(110).pids(3).build();
        List<TimelinePoint> points = List.of(point(0, 100, 0, 2), point(400, 400, 250.0, 17), point(700, 90, 5, 4));
        ResourceUsage usage = UsageCalculator.compute(SUBJECT, from, to, points, 3, 0,
                Optional.of(DataSize.ofMiB(450)), List.of());
        assertThat(usage.peak()).isEqualTo(new PeakMemory(DataSize.ofMiB(400), Duration.ofMillis(400),
                PeakMemory.Method.SAMPLED, Duration.ofMillis(50)));
        assertThat(usage.peakCpuPercent().value()).isEqualTo(250.0);
        assertThat(usage.peakPids()).isEqualTo(17);
        assertThat(usage.peakMemoryHighWaterMark()).contains(DataSize.ofMiB(450));
        assertThat(usage.timeline().points()).isEqualTo(points);
    }

    @Test
    @DisplayName("without points, the higher end reading is the peak: the end one at the window's end")
    void peakFromEnds() {
        RawReading from = Readings.atMillis(0).memoryMiB(100).pids(5).build();
        RawReading to = Readings.atMillis(2000).charged(300 * MIB, 100 * MIB).pids(1).build();
        ResourceUsage usage = UsageCalculator.compute(SUBJECT, from, to, List.of(), 2, 0, Optional.empty(),
                List.of());
        assertThat(usage.peakMemory()).isEqualTo(DataSize.ofMiB(200)); // working set, not charged memory
        assertThat(usage.peak().at()).isEqualTo(Duration.ofSeconds(2));
        assertThat(usage.peakPids()).isEqualTo(5);
        assertThat(usage.peakCpuPercent().value()).isZero();
        assertThat(usage.peakMemoryHighWaterMark()).isEmpty();
        assertThat(usage.memoryLimit()).isEmpty();
    }

    @Test
    @DisplayName("pressure is empty unless both ends have it; a zero-length window has 0 % CPU")
    void noPressure() {
        RawReading from = Readings.atMillis(5).cpu(0).pressure(new PressureTotals(1, 1, 1, 1, 1, 1)).build();
        RawReading to = Readings.atMillis(5).cpu(100).build();
        ResourceUsage usage = UsageCalculator.compute(SUBJECT, from, to, List.of(), 2, 0, Optional.empty(),
                List.of());
        assertThat(usage.pressureStallCpu()).isEmpty();
        assertThat(usage.pressureStallMemory()).isEmpty();
        assertThat(usage.pressureStallIo()).isEmpty();
        assertThat(usage.wallTime()).isZero();
        assertThat(usage.averageCpuPercent().value()).isZero();
    }
}
