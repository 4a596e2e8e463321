package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.vitals.DataSize;
import io.vitals.TimelinePoint;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("TimelineRecorder")
class TimelineRecorderTests {

    private static final long MIB = Readings.MIB;

    /** Reading i: at i x 50 ms, 50 MiB, 10 ms CPU per sample, 1 KiB read per sample, 3 PIDs. */
    private static Readings sample(int i) {
        return Readings.atMillis(1000 + i * 50L).memoryMiB(50).cpu(i * 10_000_000L).pids(3)
                .io(i * 1024L, i * 2048L).net(i * 100L, i * 10L);
    }

    @Test
    @DisplayName("the start reading is the first point, at offset zero")
    void startPoint() {
        TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 8);
        assertThat(recorder.points()).singleElement().satisfies(p -> {
            assertThat(p.offset()).isZero();
            assertThat(p.memory()).isEqualTo(DataSize.ofMiB(50));
            assertThat(p.cpuTime()).isZero();
            assertThat(p.cpuPercent()).isZero();
        });
        assertThat(recorder.samples()).isEqualTo(1);
    }

    @Test
    @DisplayName("points are relative to the start: offsets and cumulative deltas")
    void relative() {
        TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 8);
        recorder.add(sample(2).build());
        TimelinePoint point = recorder.points().get(1);
        assertThat(point.offset()).isEqualTo(Duration.ofMillis(100));
        assertThat(point.cpuTime()).isEqualTo(Duration.ofMillis(20));
        assertThat(point.cpuPercent()).isEqualTo(20.0); // 20 ms CPU in 100 ms
        assertThat(point.blockRead()).isEqualTo(DataSize.ofBytes(2048));
        assertThat(point.blockWrite()).isEqualTo(DataSize.ofBytes(4096));
        assertThat(point.networkReceived()).isEqualTo(DataSize.ofBytes(200));
        assertThat(point.networkSent()).isEqualTo(DataSize.ofBytes(20));
        assertThat(recorder.last().monotonicNanos()).isEqualTo(sample(2).monotonicNanos);
    }

    @Test
    @DisplayName("a late reading older than the last one is dropped")
    void lateReading() {
        TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 8);
        recorder.add(sample(5).build());
        recorder.add(sample(3).build());
        assertThat(recorder.points()).hasSize(2);
        assertThat(recorder.samples()).isEqualTo(2);
    }

    @ParameterizedTest(name = "maxPoints {0} is rejected")
    @ValueSource(ints = {-2, 0, 1, 3, 7})
    void badMaxPoints(int maxPoints) {
        RawReading start = sample(0).build();
        assertThatIllegalArgumentException().isThrownBy(() -> new TimelineRecorder(start, maxPoints))
                .withMessageContaining(String.valueOf(maxPoints));
    }

    @Nested
    @DisplayName("compaction")
    class Compaction {

        @ParameterizedTest(name = "{0} readings into at most 100 points")
        @ValueSource(ints = {99, 100, 101, 250, 1000, 5000})
        void bounded(int readings) {
            TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 100);
            for (int i = 1; i < readings; i++) {
                recorder.add(sample(i).build());
                assertThat(recorder.points().size()).isLessThanOrEqualTo(100);
            }
            assertThat(recorder.samples()).isEqualTo(readings);
            List<TimelinePoint> points = recorder.points();
            assertThat(points).isSortedAccordingTo(Comparator.comparing(TimelinePoint::offset));
            // the last point carries the last cumulative figures
            TimelinePoint last = points.get(points.size() - 1);
            int n = readings - 1;
            assertThat(last.cpuTime()).isEqualTo(Duration.ofMillis(n * 10L));
            assertThat(last.blockRead()).isEqualTo(DataSize.ofBytes(n * 1024L));
            assertThat(last.networkSent()).isEqualTo(DataSize.ofBytes(n * 10L));
        }

        @Test
        @DisplayName("a 300 MiB spike lasting one sample survives 10x compaction, at its own offset")
        void spikeSurvives() {
            TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 100);
            for (int i = 1; i < 1000; i++) {
                Readings reading = sample(i);
                if (i == 537) {
                    reading.memoryMiB(350);
                }
                recorder.add(reading.build());
            }
            List<TimelinePoint> points = recorder.points();
            assertThat(points.size()).isLessThanOrEqualTo(100);
            TimelinePoint peak = points.stream().max(Comparator.comparing(TimelinePoint::memory)).orElseThrow();
            assertThat(peak.memory()).isEqualTo(DataSize.ofMiB(350));
            assertThat(peak.offset()).isEqualTo(Duration.ofMillis(537 * 50L));
            assertThat(points.stream().filter(p -> p.memory().toBytes() == 350 * MIB)).hasSize(1);
        }

        @Test
        @DisplayName("CPU % and PID peaks of single samples survive too")
        void cpuAndPidsSurvive() {
            TimelineRecorder recorder = new TimelineRecorder(sample(0).build(), 16);
            long cpu = 0;
            for (int i = 1; i < 400; i++) {
                cpu += i == 200 ? 100_000_000L : 5_000_000L; // 200 % in one 50 ms sample, 10 % otherwise
                recorder.add(Readings.atMillis(1000 + i * 50L).memoryMiB(50).cpu(cpu).pids(i == 300 ? 90 : 3)
                        .build());
            }
            List<TimelinePoint> points = recorder.points();
            assertThat(points.stream().mapToDouble(TimelinePoint::cpuPercent).max().orElseThrow())
                    .isEqualTo(200.0);
            assertThat(points.stream().mapToLong(TimelinePoint::pids).max().orElseThrow()).isEqualTo(90);
        }

        @Test
        @DisplayName("merge keeps the higher memory with its offset, max CPU and PIDs, and b's cumulative figures")
        void merge() {
            TimelinePoint a = new TimelinePoint(Duration.ofMillis(10), 80.0, DataSize.ofMiB(300), 4,
                    Duration.ofMillis(5), DataSize.ofBytes(1), DataSize.ofBytes(2), DataSize.ofBytes(3),
                    DataSize.ofBytes(4));
            TimelinePoint b = new TimelinePoint(Duration.ofMillis(20), 120.0, DataSize.ofMiB(100), 9,
                    Duration.ofMillis(7), DataSize.ofBytes(10), DataSize.ofBytes(20), DataSize.ofBytes(30),
                    DataSize.ofBytes(40));
            assertThat(TimelineRecorder.merge(a, b)).isEqualTo(new TimelinePoint(Duration.ofMillis(10), 120.0,
                    DataSize.ofMiB(300), 9, Duration.ofMillis(7), DataSize.ofBytes(10), DataSize.ofBytes(20),
                    DataSize.ofBytes(30), DataSize.ofBytes(40)));
            assertThat(TimelineRecorder.merge(b, a).offset()).isEqualTo(Duration.ofMillis(10));
        }
    }
}
