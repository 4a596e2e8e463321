package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToLongFunction;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("MemoryGrowth (Theil-Sen)")
class MemoryGrowthTests {

    private static final long MIB = 1024L * 1024;
    private static final double TEN_MIB_PER_MINUTE = 10.0 * MIB / 60.0;

    private static List<TimelinePoint> timeline(int points, Duration step, IntToLongFunction memory) {
        List<TimelinePoint> timeline = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            timeline.add(new TimelinePoint(step.multipliedBy(i), 0.0, DataSize.ofBytes(memory.applyAsLong(i)), 1,
                    Duration.ZERO, DataSize.ZERO, DataSize.ZERO, DataSize.ZERO, DataSize.ZERO));
        }
        return timeline;
    }

    @ParameterizedTest(name = "{0} points, 1 s apart")
    @ValueSource(ints = {60, 299, 300, 301, 1200, 4096})
    @DisplayName("a steady 10 MiB/min leak with noise and spikes: within 5 %")
    void steadyLeak(int points) {
        Random random = new Random(42);
        List<TimelinePoint> timeline = timeline(points, Duration.ofSeconds(1), i -> {
            long base = 200 * MIB + Math.round(TEN_MIB_PER_MINUTE * i);
            long noise = Math.round(random.nextGaussian() * 2 * MIB);
            long spike = i % 37 == 5 ? 300 * MIB : 0; // GC-like spikes every ~37 s
            return base + noise + spike;
        });
        assertThat(MemoryGrowth.of(timeline).bytesPerSecond())
                .isCloseTo(TEN_MIB_PER_MINUTE, within(TEN_MIB_PER_MINUTE * 0.05));
    }

    @Test
    @DisplayName("a ramp then a longer plateau: steep over the ramp, zero over the whole window")
    void rampThenPlateauDependsOnTheWindow() {
        // monitor.usage() in a test ends at the call, the report at the end of the test: same timeline, other end
        double rampPerSecond = 160.0 * MIB / 60.0;
        List<TimelinePoint> whole = timeline(300, Duration.ofSeconds(1),
                i -> 100 * MIB + Math.round(rampPerSecond * Math.min(i, 60)));
        List<TimelinePoint> duringTheRamp = whole.subList(0, 61);

        assertThat(MemoryGrowth.of(duringTheRamp).bytesPerSecond()).isCloseTo(rampPerSecond, within(1.0));
        assertThat(MemoryGrowth.of(whole).bytesPerSecond()).isZero();
    }

    @Test
    @DisplayName("a flat line with one big spike: zero")
    void flatWithSpike() {
        List<TimelinePoint> timeline = timeline(500, Duration.ofMillis(50), i -> i == 250 ? 2048 * MIB : 100 * MIB);
        assertThat(MemoryGrowth.of(timeline).bytesPerSecond()).isZero();
    }

    @Test
    @DisplayName("a noisy flat line: about zero")
    void flatNoisy() {
        Random random = new Random(7);
        List<TimelinePoint> timeline = timeline(600, Duration.ofSeconds(1),
                i -> 100 * MIB + Math.round(random.nextGaussian() * 4 * MIB));
        assertThat(MemoryGrowth.of(timeline).bytesPerSecond()).isCloseTo(0.0, within(TEN_MIB_PER_MINUTE * 0.05));
    }

    @Test
    @DisplayName("a shrinking amount gives a negative rate")
    void shrinking() {
        List<TimelinePoint> timeline = timeline(100, Duration.ofSeconds(1), i -> 500 * MIB - i * MIB);
        assertThat(MemoryGrowth.of(timeline).bytesPerSecond()).isCloseTo(-MIB, within(1e-6));
    }

    @Test
    @DisplayName("a Timeline's points keep their slope: the same value, computed once, in an immutable list")
    void timelineKeepsItsSlope() {
        Random random = new Random(11);
        List<TimelinePoint> points = timeline(300, Duration.ofMillis(50), i -> 100 * MIB + i * 64 * 1024
                + random.nextInt(8 * (int) MIB));
        Timeline timeline = new Timeline(points, Duration.ofMillis(50), 300, 0);

        assertThat(timeline.points()).isInstanceOf(TimelinePoints.class).isEqualTo(points);
        DataRate first = MemoryGrowth.of(timeline.points());
        assertThat(first).isEqualTo(MemoryGrowth.fit(points));
        assertThat(MemoryGrowth.of(timeline.points())).isSameAs(first);
        // a timeline made from another's points shares the list, and so the slope
        assertThat(new Timeline(timeline.points(), Duration.ofMillis(50), 300, 0).points())
                .isSameAs(timeline.points());
        assertThatThrownBy(() -> timeline.points().add(points.get(0)))
                .isInstanceOf(UnsupportedOperationException.class);
        List<TimelinePoint> withNull = new ArrayList<>(points);
        withNull.set(3, null);
        assertThatThrownBy(() -> new Timeline(withNull, Duration.ofMillis(50), 300, 0))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    @DisplayName("fewer than two points, or no time between them: zero")
    void degenerate() {
        assertThat(MemoryGrowth.of(List.of()).bytesPerSecond()).isZero();
        assertThat(MemoryGrowth.of(timeline(1, Duration.ofSeconds(1), i -> MIB)).bytesPerSecond()).isZero();
        assertThat(MemoryGrowth.of(timeline(5, Duration.ZERO, i -> i * MIB)).bytesPerSecond()).isZero();
    }
}
