package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.probe.ProbeException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Which windows on one container know of each other: every other owner's window open at any time during their own
 * life, and nothing else. A {@link FakeProbe} and an hour-long interval keep the sampler out of it.
 */
@DisplayName("Overlapping windows on one container")
class WindowOverlapTests {

    private static final WindowOwner A = new WindowOwner("a()", "com.example.ATests");
    private static final WindowOwner B = new WindowOwner("b()", "com.example.ATests");
    private static final WindowOwner C = new WindowOwner("c()", "com.example.CTests");

    private Sampler sampler;
    private ContainerWatch watch;

    @BeforeEach
    void start() {
        sampler = new Sampler("vitals-overlap-test");
        watch = ContainerWatch.start("db", "postgres:16", new FakeProbe(Readings.atMillis(0).memoryMiB(100)),
                Duration.ofHours(1), sampler);
    }

    @AfterEach
    void stop() {
        watch.close();
        sampler.close();
    }

    @Test
    @DisplayName("a window alone on its container overlaps nothing")
    void alone() throws ProbeException {
        MeasurementWindow a = watch.openWindow(A);
        a.close();

        assertThat(a.overlappedWith()).isEmpty();
    }

    @Test
    @DisplayName("windows one after the other do not overlap")
    void sequential() throws ProbeException {
        MeasurementWindow a = watch.openWindow(A);
        a.close();
        MeasurementWindow b = watch.openWindow(B);
        b.close();

        assertThat(a.overlappedWith()).isEmpty();
        assertThat(b.overlappedWith()).isEmpty();
    }

    @Test
    @DisplayName("staggered windows (a opens, b opens, a closes, b closes) name each other")
    void staggered() throws ProbeException {
        MeasurementWindow a = watch.openWindow(A);
        MeasurementWindow b = watch.openWindow(B);
        a.close();
        b.close();

        assertThat(a.overlappedWith()).containsExactly(B);
        assertThat(b.overlappedWith()).containsExactly(A);
    }

    @Test
    @DisplayName("a window nested in another names it, and the outer one names the inner one")
    void nested() throws ProbeException {
        MeasurementWindow a = watch.openWindow(A);
        MeasurementWindow b = watch.openWindow(B);
        b.close();
        MeasurementWindow c = watch.openWindow(C); // after b closed: overlaps a only
        c.close();
        a.close();

        assertThat(a.overlappedWith()).containsExactly(B, C);
        assertThat(b.overlappedWith()).containsExactly(A);
        assertThat(c.overlappedWith()).containsExactly(A);
    }

    @Test
    @DisplayName("a window opened after another closed is not added to it later")
    void closedWindowStaysAsItWas() throws ProbeException {
        MeasurementWindow a = watch.openWindow(A);
        MeasurementWindow b = watch.openWindow(B);
        a.close();
        MeasurementWindow c = watch.openWindow(C);
        b.close();
        c.close();

        assertThat(a.overlappedWith()).containsExactly(B);
        assertThat(b.overlappedWith()).containsExactly(A, C);
        assertThat(c.overlappedWith()).containsExactly(B);
    }

    @Test
    @DisplayName("two windows of one test (two fields holding one container) do not overlap each other")
    void sameOwner() throws ProbeException {
        MeasurementWindow first = watch.openWindow(A);
        MeasurementWindow second = watch.openWindow(A);
        first.close();
        second.close();

        assertThat(first.overlappedWith()).isEmpty();
        assertThat(second.overlappedWith()).isEmpty();
    }

    @Test
    @DisplayName("windows on different containers (one per test, as instance fields) do not overlap")
    void ownContainers() throws ProbeException {
        ContainerWatch other = ContainerWatch.start("db", "postgres:16",
                new FakeProbe(Readings.atMillis(0).memoryMiB(100)), Duration.ofHours(1), sampler);
        try {
            MeasurementWindow a = watch.openWindow(A);
            MeasurementWindow b = other.openWindow(B);
            a.close();
            b.close();

            assertThat(a.overlappedWith()).isEmpty();
            assertThat(b.overlappedWith()).isEmpty();
        } finally {
            other.close();
        }
    }

    @Test
    @DisplayName("many tests opening at once on many threads: every window names every other one")
    void concurrentOpens() throws Exception {
        int tests = 8;
        CyclicBarrier opened = new CyclicBarrier(tests);
        ExecutorService pool = Executors.newFixedThreadPool(tests);
        try {
            List<Future<MeasurementWindow>> windows = new ArrayList<>();
            List<WindowOwner> owners = new ArrayList<>();
            for (int i = 0; i < tests; i++) {
                WindowOwner owner = new WindowOwner("t" + i + "()", "com.example.ManyTests");
                owners.add(owner);
                windows.add(pool.submit(() -> {
                    MeasurementWindow window = watch.openWindow(owner);
                    opened.await(10, TimeUnit.SECONDS); // all open before any closes
                    window.close();
                    return window;
                }));
            }
            for (int i = 0; i < tests; i++) {
                List<WindowOwner> others = new ArrayList<>(owners);
                others.remove(i);
                assertThat(windows.get(i).get(10, TimeUnit.SECONDS).overlappedWith())
                        .containsExactlyInAnyOrderElementsOf(others);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
