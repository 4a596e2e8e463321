package io.vitals.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.github.dockerjava.transport.DockerHttpClient;
import io.vitals.DataSize;
import io.vitals.ProbeKind;
import io.vitals.ProbeMode;
import io.vitals.ResourceUsage;
import io.vitals.internal.probe.CgroupAgent;
import io.vitals.internal.probe.CgroupLocator;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.internal.sampling.ContainerWatch;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.sampling.Sampler;
import io.vitals.testing.SecondEngine;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Vitals agent against the second engine on {@code tcp://127.0.0.1:23750} (examples/setup/second-engine.sh),
 * whose containers' cgroups this JVM is told not to read: the agent is started there, through the Engine API
 * client the Engine API probe uses, and the same stress container is watched by both, side by side, the agent at
 * 50 ms and the Engine API at its 1 s. Ground truth is the kernel's: the high-water mark the agent also reads,
 * {@code cpuacct.usage} read inside the container, the OOM-kill counter.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Vitals agent on a second engine, beside the Engine API probe")
class AgentProbeIT {

    /**
     * The engine the agent is measured on: the host's second engine by default; {@code -Dvitals.it.agentEngine}
     * names another (the cgroup v2 guests' own engine, a Docker-in-Docker engine), reached only through the
     * Engine API and its CLI, never through this JVM's view of cgroups.
     */
    static final SecondEngine ENGINE = SecondEngine.fromProperty("vitals.it.agentEngine");
    private static final long MIB = 1024 * 1024;
    private static final long LIMIT = 512 * MIB;

    private DockerHttpClient http;
    private DockerHttpClient stream;
    private EngineAgent agent;
    private Sampler sampler;
    private String containerId;
    private ContainerWatch agentWatch;
    private ContainerWatch apiWatch;
    /**
     * A second, idle container watched through the same agent at the same 50 ms: every tick's reads of both
     * cross in one batch, so each measurement below is made through the batched path users get with more than
     * one container.
     */
    private String companionId;
    private ContainerWatch companionWatch;

    @BeforeAll
    void secondEngineAndAgent() {
        // another engine than the second one is named with -Dvitals.it.agentEngine
        ENGINE.require("AgentProbeIT", StressContainer.IMAGE, EngineAgent.DEFAULT_IMAGE);
        http = ENGINE.client();
        stream = ENGINE.client();
        // vitals.agent.resetPeaks=true: the cgroups mounted writable, so that each window resets the kernel's mark
        agent = new EngineAgent(EngineAgent.DEFAULT_IMAGE, true, () -> http, () -> stream, Clock.systemUTC());
    }

    @BeforeAll
    void companion() throws Exception {
        companionId = ENGINE.startStress(LIMIT);
    }

    @AfterAll
    void stopAgent() throws Exception {
        if (companionId != null) {
            ENGINE.cli("rm", "-f", companionId);
        }
        agent.close();
        stream.close();
        http.close();
    }

    @BeforeEach
    void startContainer() throws Exception {
        sampler = new Sampler("vitals-agent-it-sampler");
        containerId = ENGINE.startStress(LIMIT);
        ContainerTarget target = ENGINE.targetOf(containerId);
        long start = System.nanoTime();
        ResourceProbe agentProbe = factory(agent).open(target, ProbeMode.AUTO);
        System.out.printf("agent probe opened in %d ms (agent start %s): %s%n",
                (System.nanoTime() - start) / 1_000_000, agent.startTime().map(Duration::toMillis).orElse(-1L),
                agentProbe.describe());
        ResourceProbe apiProbe = factory(agent).open(target, ProbeMode.ENGINE_API);
        agentWatch = ContainerWatch.start("stress", StressContainer.IMAGE, agentProbe, Duration.ofMillis(50),
                sampler);
        apiWatch = ContainerWatch.start("stress", StressContainer.IMAGE, apiProbe, Duration.ofMillis(50), sampler);
        companionWatch = ContainerWatch.start("companion", StressContainer.IMAGE,
                factory(agent).open(ENGINE.targetOf(companionId), ProbeMode.AGENT), Duration.ofMillis(50), sampler);
    }

    @AfterEach
    void removeContainer() throws Exception {
        agentWatch.close();
        apiWatch.close();
        companionWatch.close();
        sampler.close();
        ENGINE.cli("rm", "-f", containerId);
    }

    /** Host probe first (it fails: the second engine's PIDs are not in its containers' cgroups here), then agent. */
    private ProbeFactory factory(CgroupAgent withAgent) {
        return new ProbeFactory(new CgroupLocator(Path.of("/nonexistent")), Path.of("/nonexistent"),
                Clock.systemUTC(), () -> http, List.of(), Optional.of(withAgent), message -> { });
    }

    @Test
    @DisplayName("by default the agent mounts the cgroups read-only, as cAdvisor does: it reads, and resets no mark")
    void readOnlyByDefault() throws Exception {
        try (EngineAgent readOnly = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                Clock.systemUTC()); ResourceProbe probe = factory(readOnly).open(ENGINE.targetOf(containerId),
                        ProbeMode.AGENT)) {
            String binds = ENGINE.cli("inspect", "--format", "{{json .HostConfig.Binds}}",
                    readOnly.containerId().orElseThrow()).strip();
            boolean reset = probe.resetHighWaterMark();
            System.out.printf("read-only agent: binds %s, mark reset: %s, memory %s%n", binds, reset,
                    DataSize.ofBytes(probe.read().memory().chargedBytes()));
            assertThat(binds).contains("/sys/fs/cgroup:/host-cgroup:ro");
            assertThat(reset).as("a read-only mount cannot reset the high-water mark").isFalse();
            assertThat(probe.hostShape().peakResettable()).isFalse();
            assertThat(probe.read().memory().chargedBytes()).isPositive();
        }
    }

    @Test
    @DisplayName("the read-only agent, a container started for the test: its peak is the kernel's lifetime mark, "
            + "exact, with no reset")
    void lifetimeMarkThroughReadOnlyAgent() throws Exception {
        String fresh = ENGINE.startStress(LIMIT);
        try (EngineAgent readOnly = new EngineAgent(EngineAgent.DEFAULT_IMAGE, () -> http, () -> stream,
                Clock.systemUTC())) {
            ResourceProbe probe = factory(readOnly).open(ENGINE.targetOf(fresh), ProbeMode.AGENT);
            // started for this scope: its first window may take the kernel's lifetime mark as the test's peak
            ContainerWatch watch = ContainerWatch.start("fresh", StressContainer.IMAGE, probe, Duration.ofMillis(50),
                    sampler, true);
            try {
                MeasurementWindow window = watch.openWindow();
                ENGINE.exec(fresh, "dd if=/dev/zero bs=300M count=1 iflag=fullblock 2>/dev/null "
                        + "| (head -c 1 >/dev/null; sleep 0.15)");
                ResourceUsage usage = window.close();
                DataSize mark = DataSize.ofBytes(Long.parseLong(ENGINE.exec(fresh, KERNEL_MARK).strip()));
                System.out.printf("read-only agent, fresh container: window mark %s, sampled peak %s, kernel "
                        + "lifetime mark %s%n", usage.peakMemoryHighWaterMark().map(DataSize::toString)
                        .orElse("none"), usage.peakMemory(), mark);
                assertThat(probe.hostShape().peakResettable()).as("read-only: no reset").isFalse();
                assertThat(usage.peakMemoryHighWaterMark()).as("the kernel's lifetime mark, to the byte")
                        .hasValue(mark);
                assertThat(mark).isGreaterThanOrEqualTo(DataSize.ofMiB(300));
            } finally {
                watch.close();
            }
        } finally {
            ENGINE.cli("rm", "-f", fresh);
        }
    }

    @Test
    @DisplayName("the probe is the agent's (cgroup v1 or v2 via the agent container), at the 50 ms asked for")
    void probeKind() {
        assertThat(agentWatch.probe().kind()).isIn(ProbeKind.AGENT_CGROUP_V1, ProbeKind.AGENT_CGROUP_V2);
        assertThat(agentWatch.probe().describe()).contains("via the Vitals agent container");
        assertThat(agentWatch.interval()).isEqualTo(Duration.ofMillis(50));
        assertThat(apiWatch.probe().kind()).isEqualTo(ProbeKind.ENGINE_API);
    }

    @Test
    @DisplayName("two containers through one agent: a tick's reads of both cross in one round trip")
    void oneRoundTripPerTick() throws Exception {
        AgentConnection connection = (AgentConnection) agentWatch.probe().batchMember().orElseThrow().batch();
        assertThat(companionWatch.probe().batchMember().orElseThrow().batch()).isSameAs(connection);
        MeasurementWindow window = agentWatch.openWindow();
        MeasurementWindow companionWindow = companionWatch.openWindow();
        long roundTrips = connection.roundTrips();
        long batches = connection.batches();
        Thread.sleep(1_000);
        ResourceUsage usage = window.close();
        ResourceUsage companion = companionWindow.close();
        long tripsDuring = connection.roundTrips() - roundTrips;
        long batchesDuring = connection.batches() - batches;
        long samples = usage.timeline().samples() + companion.timeline().samples();
        System.out.printf("two containers through one agent: %d samples in %d round trips (%d of them batches)%n",
                samples, tripsDuring, batchesDuring);
        assertThat(usage.timeline().readErrors()).isZero();
        assertThat(companion.timeline().readErrors()).isZero();
        // each tick reads both in one batch; the windows' edges (two reads and a liveness check each) and a full
        // read after a new memory high are round trips of their own
        assertThat(batchesDuring).isPositive();
        assertThat(tripsDuring).isLessThan(samples * 3 / 4);
    }

    @Test
    @DisplayName("a 300 MiB spike held 150 ms: the agent's per-test mark within 1 % of the kernel's, where the kernel "
            + "resets one; its sampled peak printed beside the Engine API's")
    void spike() throws Exception {
        MeasurementWindow agentWindow = agentWatch.openWindow();
        MeasurementWindow apiWindow = apiWatch.openWindow();
        // dd fills 300 MiB, then blocks on a pipe whose reader sleeps 150 ms after the first byte arrives
        exec("dd if=/dev/zero bs=300M count=1 iflag=fullblock 2>/dev/null | (head -c 1 >/dev/null; sleep 0.15)");
        ResourceUsage byAgent = agentWindow.close();
        ResourceUsage byApi = apiWindow.close();
        // the kernel's mark read inside the container: the window's own where the agent reset it (v1, v2 from
        // 6.12), else the container's lifetime mark (v2 before 6.12), which for this fresh container is the spike's
        DataSize mark = DataSize.ofBytes(kernelMarkFromInside());
        boolean resettable = agentWatch.probe().hostShape().peakResettable();
        System.out.printf("300 MiB held 150 ms: agent mark %s, sampled peak %s (%+.2f %%; %d samples, %s), kernel "
                + "high-water mark %s; Engine API sampled peak %s (%+.2f %%; %d samples)%n",
                byAgent.peakMemoryHighWaterMark().map(DataSize::toString).orElse("none (no per-window mark here)"),
                byAgent.peakMemory(), percentOff(byAgent.peakMemory(), mark), byAgent.timeline().samples(),
                byAgent.probe().description(), mark, byApi.peakMemory(), percentOff(byApi.peakMemory(), mark),
                byApi.timeline().samples());
        assertThat(byAgent.peakMemory()).as("a sampled peak is never above the kernel's mark")
                .isLessThanOrEqualTo(DataSize.ofBytes(mark.toBytes() + mark.toBytes() / 100));
        if (!resettable) {
            // cgroup v2 before Linux 6.12: the peak of a window on a running container is sampled, as the host
            // probe's is there; under the guests' emulation a 150 ms hold gets few samples (-24 % was seen)
            assertThat(byAgent.peakMemoryHighWaterMark()).as("no per-window mark on this kernel").isEmpty();
            return;
        }
        assertThat((double) byAgent.peakMemoryHighWaterMark().orElseThrow().toBytes())
                .isCloseTo(mark.toBytes(), within(0.01 * mark.toBytes()));
        // sampled at 50 ms through the agent: within 0.1 % in every run on the host and on 6.12; 2 % leaves room
        // for a loaded machine without hiding a sampler that misses the plateau
        assertThat((double) byAgent.peakMemory().toBytes()).isCloseTo(mark.toBytes(), within(0.02 * mark.toBytes()));
        assertThat(byAgent.peakMemory()).isGreaterThanOrEqualTo(DataSize.ofMiB(295));
    }

    private static double percentOff(DataSize measured, DataSize truth) {
        return 100.0 * (measured.toBytes() - truth.toBytes()) / truth.toBytes();
    }

    @Test
    @DisplayName("five 300 MiB spikes held about 5 ms: the agent's high-water mark within 1 % of the kernel's, as the "
            + "host probe's")
    void fiveMillisecondSpikes() throws Exception {
        // The host probe watches the same container at the same time where this JVM can read the engine's cgroups
        // (root on the second engine's host; not so for an engine in a VM or a Docker-in-Docker container)
        Optional<ContainerWatch> hostWatch = hostProbeOf(ENGINE.targetOf(containerId))
                .map(probe -> ContainerWatch.start("stress", StressContainer.IMAGE, probe, Duration.ofMillis(50),
                        sampler));
        try {
            // each window resets the cgroup's one high-water mark when it opens (cgroup v1), so every window is
            // opened before the first spike: a later open would erase what an earlier window had seen
            MeasurementWindow agentWindow = agentWatch.openWindow();
            MeasurementWindow apiWindow = apiWatch.openWindow();
            Optional<MeasurementWindow> hostWindow = Optional.empty();
            if (hostWatch.isPresent()) {
                hostWindow = Optional.of(hostWatch.get().openWindow());
            }
            // dd fills 300 MiB and blocks on the pipe; the reader takes one byte, waits 5 ms and exits, and dd dies
            // of SIGPIPE, freeing the buffer; five times, 200 ms apart. The wait spins on bash's EPOCHREALTIME
            // instead of running sleep: a fork and exec of sleep took 8-22 ms on this loaded host, holding the
            // buffer 13-27 ms in all. Each hold is timed from the first byte read (head exiting) to the end, so the
            // figure printed is the hold, not the intent (dd's exit, freeing the pages, comes after it)
            // The fill before it is timed too: a spike rises while dd fills the buffer, and on a loaded host that
            // rise is slow enough for samples to land near the top (the sampled peaks printed show it)
            String holds = exec("for i in 1 2 3 4 5; do ts=${EPOCHREALTIME/./}; dd if=/dev/zero bs=300M count=1 "
                    + "iflag=fullblock 2>/dev/null | (head -c 1 >/dev/null; t0=${EPOCHREALTIME/./}; "
                    + "while (( ${EPOCHREALTIME/./} - t0 < 5000 )); do :; done; "
                    + "echo \"$ts $t0 ${EPOCHREALTIME/./}\"); sleep 0.2; done");
            ResourceUsage byAgent = agentWindow.close();
            ResourceUsage byApi = apiWindow.close();
            Optional<ResourceUsage> byHost = hostWindow.map(MeasurementWindow::close);
            // the kernel's mark read independently, inside the container, after every window closed (closing does
            // not reset it); the exec's own bash and cat are far below 300 MiB
            long kernel = kernelMarkFromInside();
            // no per-window mark where the kernel cannot reset it (cgroup v2 before Linux 6.12): then neither the
            // agent nor the host probe has one, and the peak is sampled, as for the host probe there
            boolean resettable = agentWatch.probe().hostShape().peakResettable();
            DataSize agentMark = byAgent.peakMemoryHighWaterMark().orElse(DataSize.ZERO);
            List<long[]> times = holds.lines().map(line -> Stream.of(line.strip().split(" "))
                    .mapToLong(Long::parseLong).toArray()).toList();
            String heldMillis = times.stream().map(t -> String.format("%.1f", (t[2] - t[1]) / 1000.0))
                    .collect(Collectors.joining(", ", "held ", " ms"))
                    + times.stream().map(t -> Long.toString((t[1] - t[0]) / 1000))
                            .collect(Collectors.joining(", ", " after fills of ", " ms"));
            System.out.printf("five 300 MiB spikes (%s): kernel mark %d B (%s); agent mark %s (%+.3f %%), "
                    + "agent sampled peak %s (%d samples); host probe mark %s, sampled peak %s; Engine API sampled "
                    + "peak %s (%d samples), mark %s%n", heldMillis, kernel, DataSize.ofBytes(kernel), agentMark,
                    100.0 * (agentMark.toBytes() - kernel) / kernel, byAgent.peakMemory(),
                    byAgent.timeline().samples(),
                    byHost.flatMap(ResourceUsage::peakMemoryHighWaterMark).map(DataSize::toString)
                            .orElse("(host probe cannot read this engine)"),
                    byHost.map(usage -> usage.peakMemory().toString()).orElse("-"), byApi.peakMemory(),
                    byApi.timeline().samples(),
                    byApi.peakMemoryHighWaterMark().map(DataSize::toString).orElse("none"));
            if (!resettable) {
                assertThat(byAgent.peakMemoryHighWaterMark()).as("no per-window mark on this kernel").isEmpty();
                byHost.ifPresent(usage -> assertThat(usage.peakMemoryHighWaterMark())
                        .as("the host probe has none either").isEmpty());
                return;
            }
            assertThat((double) agentMark.toBytes()).isCloseTo(kernel, within(0.01 * kernel));
            assertThat(agentMark).isGreaterThanOrEqualTo(DataSize.ofMiB(300));
            byHost.ifPresent(usage -> assertThat((double) usage.peakMemoryHighWaterMark().orElseThrow().toBytes())
                    .as("the host probe's mark of the same spikes").isCloseTo(agentMark.toBytes(),
                            within(0.01 * agentMark.toBytes())));
        } finally {
            hostWatch.ifPresent(ContainerWatch::close);
        }
    }

    /** The host probe of this JVM, where it can read the engine's cgroups; empty where it cannot. */
    private Optional<ResourceProbe> hostProbeOf(ContainerTarget target) {
        try {
            return Optional.of(ProbeFactory.forThisHost(() -> http).open(target, ProbeMode.HOST_CGROUP));
        } catch (ProbeException e) {
            System.out.println("the host probe cannot read " + ENGINE.host() + "'s container: " + e.getMessage());
            return Optional.empty();
        }
    }

    @Test
    @DisplayName("1 CPU worker for 2 s: the agent's CPU time within 1 % of the cgroup's own cpuacct.usage delta")
    void cpuTime() throws Exception {
        long before = cpuacctUsageFromInside();
        MeasurementWindow agentWindow = agentWatch.openWindow();
        MeasurementWindow apiWindow = apiWatch.openWindow();
        // the counter is read again in the same exec, inside the window: a second exec's own start (bash, cat:
        // tens of ms of CPU) would count in the kernel's delta after the window closed
        long after = Long.parseLong(exec("stress-ng --cpu 1 --cpu-method int64 --timeout 2s --quiet; "
                + CPUACCT_USAGE).strip());
        ResourceUsage byAgent = agentWindow.close();
        ResourceUsage byApi = apiWindow.close();
        double truth = (after - before) / 1e9;
        double agentSeconds = byAgent.cpuTime().toNanos() / 1e9;
        double apiSeconds = byApi.cpuTime().toNanos() / 1e9;
        System.out.printf("CPU time: kernel %.3f s; agent %.3f s (%+.2f %%, %d samples); Engine API %.3f s "
                + "(%+.2f %%, %d samples)%n", truth, agentSeconds, 100 * (agentSeconds - truth) / truth,
                byAgent.timeline().samples(), apiSeconds, 100 * (apiSeconds - truth) / truth,
                byApi.timeline().samples());
        // 1 %, and 50 ms for the edges: the kernel's "after" is read by the exec's awk or cat, whose own exit, and
        // bash's, still count in the agent's window (+36 ms, +1.00 %, was seen in Docker-in-Docker on 6.12 under
        // emulation; within 0.7 % everywhere else)
        assertThat(agentSeconds).isCloseTo(truth, within(0.01 * truth + 0.05));
        // only that the load ran: one worker for 2 s got 0.62-1.49 s of CPU on this 2-vCPU host shared with other
        // jobs (nine runs on 2026-12-02, load average 7-12), so the floor is well below that
        assertThat(agentSeconds).isGreaterThan(0.3);
    }

    @Test
    @DisplayName("a 600 MiB allocation in a 512 MiB container: the agent counts the OOM kill")
    void oomKill() throws Exception {
        MeasurementWindow agentWindow = agentWatch.openWindow();
        MeasurementWindow apiWindow = apiWatch.openWindow();
        execExitCode("dd if=/dev/zero bs=600M count=1 iflag=fullblock 2>/dev/null | sleep 1");
        ResourceUsage byAgent = agentWindow.close();
        ResourceUsage byApi = apiWindow.close();
        System.out.printf("OOM kill of an exec'd dd: agent counted %d (peak %s, first at %s); Engine API counted %d "
                + "(its stats carry no OOM-kill count)%n", byAgent.oomKills(), byAgent.peakMemory(),
                agentWindow.firstOomKillAt().map(Duration::toString).orElse("?"), byApi.oomKills());
        assertThat(byAgent.oomKills()).isEqualTo(1);
        assertThat(agentWatch.goneReason()).as("the container itself lives on").isEmpty();
    }

    private static final String CPUACCT_USAGE = "cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || "
            + "awk '/usage_usec/ {printf \"%.0f\\n\", $2 * 1000}' /sys/fs/cgroup/cpu.stat";

    /** The cgroup's memory high-water mark as the container itself reads it (v1, else v2's memory.peak). */
    private static final String KERNEL_MARK = "cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes 2>/dev/null "
            + "|| cat /sys/fs/cgroup/memory.peak";

    private long kernelMarkFromInside() throws Exception {
        return Long.parseLong(exec(KERNEL_MARK).strip());
    }

    private long cpuacctUsageFromInside() throws Exception {
        return Long.parseLong(exec(CPUACCT_USAGE).strip());
    }

    private String exec(String script) throws Exception {
        return ENGINE.exec(containerId, script);
    }

    private void execExitCode(String script) throws Exception {
        try {
            exec(script);
        } catch (IOException e) {
            // the OOM-killed command exits non-zero: expected
        }
    }
}
