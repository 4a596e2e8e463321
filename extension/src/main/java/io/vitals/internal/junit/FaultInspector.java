package io.vitals.internal.junit;

import com.github.dockerjava.api.command.InspectContainerResponse;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.units.DurationParser;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.testcontainers.DockerClientFactory;

/**
 * Finds out whether a container was OOM-killed or stopped during a test, and words it.
 *
 * <p>An OOM kill is seen from the cgroup's {@code oom_kill} counter, which also counts a process killed inside a
 * container that keeps running (a {@code docker exec}'d training job, say, whose container docker does not flag
 * as {@code OOMKilled}), and from docker's {@code OOMKilled} state when the container itself died.
 */
final class FaultInspector {

    static final int LOG_TAIL_LINES = 50;
    private static final int LAST_SAMPLES = 5;
    /** How long docker may take to report as stopped a container the probe found gone (measured: see docs). */
    static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(3);
    static final Duration CONFIRM_POLL = Duration.ofMillis(50);

    private FaultInspector() {
    }

    static Optional<ContainerFault> inspect(MeasuredContainer container, ResourceUsage usage) {
        if (!looksWrong(container, usage)) {
            return Optional.empty();
        }
        boolean gone = container.window().containerGoneReason().isPresent();
        Optional<InspectContainerResponse.ContainerState> state = gone
                ? stateOnceStopped(container.containerId(), CONFIRM_TIMEOUT)
                : state(container.containerId());
        boolean running = state.map(s -> Boolean.TRUE.equals(s.getRunning())).orElse(false);
        boolean dockerOom = state.map(s -> Boolean.TRUE.equals(s.getOOMKilled())).orElse(false);
        OptionalLong exitCode = state.filter(s -> !running).map(s -> s.getExitCodeLong())
                .map(code -> OptionalLong.of(code)).orElse(OptionalLong.empty());
        if (usage.oomKills() > 0 || (!running && dockerOom)) {
            Duration at = container.window().firstOomKillAt().orElse(usage.wallTime());
            String description = "container '" + container.name() + "' was OOM-killed at " + DurationParser.format(at)
                    + ": limit " + usage.memoryLimit().map(Object::toString).orElse("none") + ", peak "
                    // the allocation that ends in an OOM kill is often faster than any sampler; the kernel's
                    // mark is the exact peak where we have it
                    + usage.peakMemoryHighWaterMark().map(mark -> mark + " (kernel high-water mark; sampled peak "
                            + usage.peakMemory() + ")").orElse(usage.peakMemory() + " (sampled)")
                    + ", " + Math.max(1, usage.oomKills()) + (usage.oomKills() > 1 ? " processes" : " process")
                    + " killed" + (running ? "; the container itself kept running" : "; the container stopped"
                            + exitCode.stream().mapToObj(code -> " with exit code " + code).findFirst().orElse(""));
            return Optional.of(new ContainerFault(ContainerFault.Kind.OOM_KILL, exitCode, Optional.of(at),
                    description));
        }
        if (gone || (state.isPresent() && !running)) {
            // when the probe found it gone; a window whose last reading came before the death (the Engine API
            // reads once a second) would otherwise say "noticed at 0 ns"
            Duration at = container.window().containerGoneAt().orElse(usage.wallTime());
            String engineSays = state.map(s -> running
                    ? "the engine still reported it running " + DurationParser.format(CONFIRM_TIMEOUT) + " later"
                    : "state " + s.getStatus()
                            + exitCode.stream().mapToObj(code -> ", exit code " + code).findFirst().orElse(""))
                    .orElse("the engine no longer knows it");
            String description = "container '" + container.name() + "' stopped during the test (noticed at "
                    + DurationParser.format(at) + "): " + engineSays
                    + container.window().containerGoneReason().map(reason -> " (" + reason + ")").orElse("");
            return Optional.of(new ContainerFault(ContainerFault.Kind.EXITED, exitCode, Optional.of(at),
                    description));
        }
        return Optional.empty();
    }

    /**
     * Whether anything hints at a fault: an OOM kill counted by the cgroup, a container whose cgroup or init
     * process went away or is on its way out (the window's end asks the probe, so this does not depend on when the
     * sampler last looked), or failed reads. A healthy container costs no Docker API call (a few milliseconds each,
     * on every test) with the host probe; docker's own state is asked only to word a fault.
     */
    static boolean looksWrong(MeasuredContainer container, ResourceUsage usage) {
        return usage.oomKills() > 0 || container.window().containerGoneReason().isPresent()
                || usage.timeline().readErrors() > 0;
    }

    /**
     * Docker's state of a container the probe found gone. Docker learns of an exit after the kernel (from the
     * shim, once the init process is reaped), so it may still say "running": it is asked again every
     * {@link #CONFIRM_POLL} until it says otherwise or {@code timeout} has passed, for the exit code. Only this
     * fault path waits; the fault is reported either way.
     */
    static Optional<InspectContainerResponse.ContainerState> stateOnceStopped(String containerId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<InspectContainerResponse.ContainerState> state = state(containerId);
        while (state.map(s -> Boolean.TRUE.equals(s.getRunning())).orElse(false) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(CONFIRM_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // a test being ended: word the fault with what we have
                break;
            }
            state = state(containerId);
        }
        return state;
    }

    private static Optional<InspectContainerResponse.ContainerState> state(String containerId) {
        try {
            return Optional.ofNullable(
                    DockerClientFactory.lazyClient().inspectContainerCmd(containerId).exec().getState());
        } catch (RuntimeException e) {
            return Optional.empty(); // removed already, or the engine is gone: nothing more to learn
        }
    }

    /** The last lines of the container's log (stdout and stderr), or a line saying why there are none. */
    static List<String> logTail(MeasuredContainer container) {
        try {
            String logs = container.container().getLogs();
            List<String> lines = Arrays.asList(logs.split("\n"));
            return List.copyOf(lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (RuntimeException e) {
            return List.of("(the container's log could not be read: " + e.getMessage() + ")");
        }
    }

    /**
     * The last few timeline points, one line each, for a failure message; where the fault was noticed after the
     * last of them, a line says so, since a gone container gives no reading at the moment it was found gone.
     */
    static String lastSamples(ResourceUsage usage, ContainerFault fault) {
        List<TimelinePoint> points = usage.timeline().points();
        StringBuilder text = new StringBuilder();
        for (TimelinePoint point : points.subList(Math.max(0, points.size() - LAST_SAMPLES), points.size())) {
            text.append(String.format("  %8s  MEM %-11s CPU %-9s PIDS %d%n", DurationParser.format(point.offset()),
                    point.memory(), String.format("%.1f%%", point.cpuPercent()), point.pids()));
        }
        Optional<Duration> lastOffset = points.isEmpty() ? Optional.empty()
                : Optional.of(points.get(points.size() - 1).offset());
        fault.at().filter(at -> fault.kind() == ContainerFault.Kind.EXITED)
                .filter(at -> lastOffset.filter(last -> last.compareTo(at) >= 0).isEmpty())
                .ifPresent(at -> text.append(String.format("  %8s  (no reading: the container was found gone)%n",
                        DurationParser.format(at))));
        return text.toString();
    }
}
