package io.vitals.benchmark;

import io.vitals.ProbeMode;
import io.vitals.internal.probe.ContainerTarget;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.ProbeFactory;
import io.vitals.internal.probe.ResourceProbe;
import io.vitals.testing.DockerCli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** A container this benchmark started, and how to probe it. */
record BenchContainer(String id, ContainerTarget target) {

    /** The image every benchmark container runs. */
    static final String IMAGE = "vitals/stress:latest";

    /** The IDs of each start (filled while containers start) and the shutdown hook that removes them. */
    /** Removing a hundred containers at once takes minutes on a busy machine. */
    private static final Duration REMOVAL_TIMEOUT = Duration.ofMinutes(10);
    private static final List<Map.Entry<List<String>, Thread>> HOOKS =
            new CopyOnWriteArrayList<>();

    private static final ProbeFactory PROBES = ProbeFactory.forThisHost(() -> {
        throw new IllegalStateException("the benchmark reads the host's cgroup files only");
    });

    ResourceProbe open() throws ProbeException {
        return PROBES.open(target, ProbeMode.HOST_CGROUP);
    }

    /** Starts {@code count} containers running {@code command}, eight {@code docker run}s at a time. */
    static List<BenchContainer> start(int count, String run, List<String> command) throws Exception {
        List<String> ids = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = new Thread(() -> removeIds(ids));
        Runtime.getRuntime().addShutdownHook(cleanup);
        HOOKS.add(Map.entry(ids, cleanup));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                started.add(pool.submit(() -> {
                    List<String> arguments = new ArrayList<>(List.of("run", "-d", "--rm", "--label",
                            "io.vitals.managed=true", "--label", "io.vitals.bench=" + run, IMAGE));
                    arguments.addAll(command);
                    ids.add(DockerCli.run(arguments.toArray(String[]::new)).strip());
                    return null;
                }));
            }
            for (Future<?> future : started) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }
        List<String> lines = new ArrayList<>(List.of("inspect", "--format", "{{.Id}} {{.State.Pid}}"));
        lines.addAll(ids);
        List<BenchContainer> targets = new ArrayList<>();
        int n = 0;
        for (String line : DockerCli.run(lines.toArray(String[]::new)).strip().split("\n")) {
            String[] idPid = line.strip().split(" ");
            targets.add(new BenchContainer(idPid[0], new ContainerTarget(idPid[0], "c" + n++, IMAGE,
                    Long.parseLong(idPid[1]), OptionalLong.empty())));
        }
        return targets;
    }

    /** Removes the containers of one {@link #start}, and its shutdown hook. */
    static void remove(List<BenchContainer> targets) {
        List<String> ids = targets.stream().map(BenchContainer::id).toList();
        removeIds(ids);
        HOOKS.removeIf(entry -> {
            if (entry.getKey().containsAll(ids)) {
                Runtime.getRuntime().removeShutdownHook(entry.getValue());
                return true;
            }
            return false;
        });
    }

    private static void removeIds(List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("rm", "-f"));
        synchronized (ids) {
            command.addAll(ids);
        }
        try {
            DockerCli.run(REMOVAL_TIMEOUT, command.toArray(String[]::new));
        } catch (Exception e) {
            System.err.println("Could not remove the benchmark's containers " + ids + ": " + e);
        }
    }
}
