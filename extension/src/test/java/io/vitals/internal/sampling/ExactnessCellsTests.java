package io.vitals.internal.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ProbeKind;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.EngineStatsParser;
import io.vitals.internal.probe.Fixtures;
import io.vitals.internal.probe.HostCgroupProbe;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.result.Exactness;
import io.vitals.internal.result.Exactness.Column;
import io.vitals.internal.result.MatrixCell;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.OptionalLong;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cells of docs/metrics.md's exactness table that a test gets, from windows opened as the extension opens them
 * on real probes over the fixture trees: the first window of a container started for the test (the "started by the
 * test" peak column), then a second window on the same container (the "shared by tests" column).
 */
@DisplayName("Exactness cells from recorded fixtures")
class ExactnessCellsTests {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T15:59:17Z"), ZoneOffset.UTC);
    private static final Duration INTERVAL = Duration.ofMillis(50);

    @TempDir
    Path temp;

    private final Sampler sampler = new Sampler("vitals-cells-" + UUID.randomUUID());

    @AfterEach
    void closeSampler() {
        sampler.close();
    }

    /** The cells of the first window (container started by the test) and of a second one (shared). */
    private record Windows(Exactness first, Exactness second) {
    }

    private Windows twoWindows(ResourceProbe probe, Duration interval) throws ProbeException {
        try (probe) {
            ContainerWatch watch = new ContainerWatch("db", "img", probe, interval, sampler, true);
            Exactness first = measure(watch);
            Exactness second = measure(watch);
            return new Windows(first, second);
        }
    }

    private static Exactness measure(ContainerWatch watch) throws ProbeException {
        MeasurementWindow window = watch.openWindow();
        for (int tick = 0; tick < 3; tick++) {
            watch.sampleOnce();
        }
        return Exactness.of(window.close(), window.fromContainerStart());
    }

    /** A copy of the v2 tree as root on {@code kernel} would see it. */
    private Path v2Tree(String kernel) throws IOException {
        Path root = Fixtures.copy(Fixtures.v2Root(), temp.resolve(UUID.randomUUID().toString()));
        Files.writeString(root.resolve("proc/sys/kernel/osrelease"), kernel + "\n");
        Files.writeString(root.resolve("proc/self/status"), "Uid:\t0\t0\t0\t0\n");
        return root;
    }

    private static HostCgroupProbe open(Path root, long pid) throws ProbeException {
        return HostCgroupProbe.open("db", pid, new CgroupLocator(root), root.resolve("proc"), CLOCK);
    }

    @Test
    @DisplayName("cgroup v1 as recorded (root): peaks exact in both columns, block write unavailable, the rest exact")
    void v1Root() throws Exception {
        Path root = Fixtures.copy(Fixtures.v1Root(), temp.resolve("v1")); // the reset writes max_usage_in_bytes
        HostCgroupProbe probe = open(root, Fixtures.V1_PID);
        Windows windows = twoWindows(probe, INTERVAL);
        assertThat(probe.hostShape().row()).isEqualTo(HostShape.Row.CGROUP_V1_ROOT);

        Exactness first = windows.first();
        assertThat(first.measuredFromStart()).isTrue();
        assertThat(first.cell(Column.PEAK_MEMORY_STARTED_BY_TEST)).contains(MatrixCell.exact());
        assertThat(first.cell(Column.PEAK_MEMORY_SHARED_BY_TESTS)).isEmpty();
        assertThat(first.cell(Column.CPU_TIME)).contains(MatrixCell.exact());
        MatrixCell blockWrite = first.cell(Column.BLOCK_WRITE).orElseThrow();
        assertThat(blockWrite.kind()).isEqualTo(MatrixCell.Kind.UNAVAILABLE);
        // Measurability's own sentence: the recorded blkio file counts 0 B
        assertThat(blockWrite.reason()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("blockWrite cannot be measured here: cgroup v1 does not attribute buffered writeback")
                .contains("its blkio controller counted nothing for this container"));
        assertThat(first.cell(Column.PRESSURE_STALL)).contains(MatrixCell.exact()); // the unified tree's files
        assertThat(first.cell(Column.OOM_KILLS)).contains(MatrixCell.exact());

        Exactness second = windows.second();
        assertThat(second.measuredFromStart()).isFalse();
        assertThat(second.cell(Column.PEAK_MEMORY_STARTED_BY_TEST)).isEmpty();
        assertThat(second.cell(Column.PEAK_MEMORY_SHARED_BY_TESTS)).contains(MatrixCell.exact()); // reset per window
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.1 (memory.peak not resettable): started exact, shared sampled at 50 ms")
    void v2Kernel61() throws Exception {
        HostCgroupProbe real = open(v2Tree("6.1.0-27-cloud-amd64"), Fixtures.V2_PID);
        Windows windows = twoWindows(new KernelPeak(real, null), INTERVAL);
        assertThat(real.hostShape().id()).isEqualTo("cgroup-v2-6.1-root");

        assertThat(windows.first().cell(Column.PEAK_MEMORY_STARTED_BY_TEST)).contains(MatrixCell.exact());
        assertThat(windows.second().cell(Column.PEAK_MEMORY_SHARED_BY_TESTS))
                .contains(MatrixCell.sampled(Duration.ofMillis(50)));
        // v2 attributes writeback: io.stat is taken as measured even when the window counted nothing
        assertThat(windows.first().cell(Column.BLOCK_WRITE)).contains(MatrixCell.exact());
        assertThat(windows.first().cell(Column.CPU_TIME)).contains(MatrixCell.exact());
        assertThat(windows.first().cell(Column.PRESSURE_STALL)).contains(MatrixCell.exact());
        assertThat(windows.first().cell(Column.OOM_KILLS)).contains(MatrixCell.exact());
    }

    @Test
    @DisplayName("cgroup v2, kernel 6.12 (memory.peak reset per open file): exact in both peak columns")
    void v2Kernel612() throws Exception {
        Path root = v2Tree("6.12.48+deb13-amd64");
        HostCgroupProbe real = open(root, Fixtures.V2_PID);
        Path peak = Fixtures.v2Dir(root).resolve("memory.peak");
        Windows windows = twoWindows(new KernelPeak(real, peak), INTERVAL);
        assertThat(real.hostShape().id()).isEqualTo("cgroup-v2-6.12-root");
        assertThat(windows.first().cell(Column.PEAK_MEMORY_STARTED_BY_TEST)).contains(MatrixCell.exact());
        assertThat(windows.second().cell(Column.PEAK_MEMORY_SHARED_BY_TESTS)).contains(MatrixCell.exact());
    }

    @Test
    @DisplayName("the Engine API (daemon on cgroup v2, no max_usage): peaks sampled at 1 s; no PSI, no OOM count")
    void engineApi() throws Exception {
        JsonNode stats = new ObjectMapper().readTree(Fixtures.path("engine-api/stats-v2.json").toFile());
        Windows windows = twoWindows(new RecordedEngineAnswer(stats), Duration.ofSeconds(1));

        Exactness first = windows.first();
        assertThat(first.cell(Column.PEAK_MEMORY_STARTED_BY_TEST)).contains(MatrixCell.sampled(Duration.ofSeconds(1)));
        assertThat(windows.second().cell(Column.PEAK_MEMORY_SHARED_BY_TESTS))
                .contains(MatrixCell.sampled(Duration.ofSeconds(1)));
        assertThat(first.cell(Column.CPU_TIME)).contains(MatrixCell.exact());
        // the same answer at both edges: 0 B written, which the Engine API cannot tell from "not counted"
        assertThat(first.cell(Column.BLOCK_WRITE).orElseThrow().reason()).hasValueSatisfying(reason ->
                assertThat(reason).contains("the Docker Engine API reported 0 B for this container"));
        assertThat(first.cell(Column.PRESSURE_STALL)).contains(
                MatrixCell.unavailable("The Docker Engine API reports no pressure stall information."));
        assertThat(first.cell(Column.OOM_KILLS).orElseThrow().kind()).isEqualTo(MatrixCell.Kind.UNAVAILABLE);
    }

    /**
     * A real probe over a fixture tree whose {@code memory.peak} answers a reset as a kernel would: refused before
     * 6.12 ({@code peak} null), or restarted at memory.current from 6.12 on (a regular file needs us to write the
     * restarted mark, which the kernel would).
     */
    private static final class KernelPeak implements ResourceProbe {

        private final HostCgroupProbe real;
        private final Path peak;

        KernelPeak(HostCgroupProbe real, Path peak) {
            this.real = real;
            this.peak = peak;
        }

        @Override
        public boolean resetHighWaterMark() throws ProbeException {
            if (peak == null) {
                return false; // memory.peak is mode 0444 before 6.12, for root too
            }
            boolean reset = real.resetHighWaterMark();
            try {
                Files.writeString(peak, "157286400\n"); // memory.current of the tree
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return reset;
        }

        @Override
        public ProbeKind kind() {
            return real.kind();
        }

        @Override
        public RawReading read() throws ProbeException {
            return real.read();
        }

        @Override
        public HostShape hostShape() {
            return real.hostShape();
        }

        @Override
        public Duration minimumInterval() {
            return real.minimumInterval();
        }

        @Override
        public String describe() {
            return real.describe();
        }

        @Override
        public void close() {
            real.close();
        }
    }

    /** The Engine API probe's parsing of a recorded answer, without a daemon: every read returns that answer. */
    private static final class RecordedEngineAnswer implements ResourceProbe {

        private final JsonNode stats;

        RecordedEngineAnswer(JsonNode stats) {
            this.stats = stats;
        }

        @Override
        public ProbeKind kind() {
            return ProbeKind.ENGINE_API;
        }

        @Override
        public RawReading read() {
            return EngineStatsParser.parse(stats, System.nanoTime(), CLOCK.instant(), OptionalLong.empty());
        }

        @Override
        public boolean resetHighWaterMark() {
            return false;
        }

        @Override
        public HostShape hostShape() {
            return HostShape.engineApi();
        }

        @Override
        public Duration minimumInterval() {
            return Duration.ofSeconds(1);
        }

        @Override
        public String describe() {
            return "recorded Engine API answer";
        }

        @Override
        public void close() {
        }
    }
}
