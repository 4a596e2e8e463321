package io.vitals.internal.regression.testbed;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.HostShape;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.apiguardian.api.API;

/**
 * Tells the {@link Testbed} of each measured container: the machine's facts, what its figures were read from, and
 * its limits. Why these fields (docs/ci.md, "Testbeds"): each moves a figure without any change to the code. CPUs
 * and CPU model move CPU time and, through thread pools sized from the CPUs seen, peak memory and PIDs; the kernel
 * and cgroup version change what is charged to a container (v2 charges some kernel memory v1 did not); the engine
 * and probe change how figures are read (the Engine API samples once a second); the limits bound what a container
 * may use. The machine's memory is recorded because it moves the page cache a container is charged for.
 */
@API(status = INTERNAL, since = "0.1")
public final class Testbeds {

    private final Supplier<MachineFacts> machine;
    private final Optional<String> name;
    private final List<String> ignored;

    /**
     * @param machine the machine's facts, asked for on the first container
     * @param name the user's name for the testbed ({@code vitals.testbed}), if any
     * @param ignored the fields that do not tell testbeds apart ({@code vitals.testbed.ignore})
     */
    public Testbeds(Supplier<MachineFacts> machine, Optional<String> name, List<String> ignored) {
        this.machine = machine;
        this.name = name;
        this.ignored = List.copyOf(ignored);
    }

    public Testbed of(ContainerResult container) {
        return Testbed.of(fields(container), name, ignored);
    }

    Map<String, String> fields(ContainerResult container) {
        MachineFacts facts = machine.get();
        HostShape shape = container.hostShape();
        String probe = probe(container);
        Map<String, String> fields = new TreeMap<>();
        if (probe.equals("host")) {
            // /proc/cpuinfo is this machine's: only the host probe's containers run on it for certain
            facts.cpuModel().ifPresent(model -> fields.put(Testbed.Field.CPU_MODEL.key(), model));
        }
        cpus(facts, container.limits()).ifPresent(cpus -> fields.put(Testbed.Field.CPUS.key(), cpus));
        facts.memoryGiB().ifPresent(gib -> fields.put(Testbed.Field.MEMORY.key(), gib + " GiB"));
        facts.kernel().or(shape::kernel).ifPresent(kernel -> fields.put(Testbed.Field.KERNEL.key(), kernel));
        shape.cgroup().ifPresent(cgroup -> fields.put(Testbed.Field.CGROUP.key(), cgroup));
        String engine = shape.engine().orElse("docker") + facts.engineVersion().map(v -> " " + v).orElse("");
        fields.put(Testbed.Field.ENGINE.key(), engine);
        fields.put(Testbed.Field.PROBE.key(), probe);
        fields.put(Testbed.Field.LIMITS.key(), limits(container.limits()));
        return fields;
    }

    private static String probe(ContainerResult container) {
        if (container.hostShape().row() == HostShape.Row.ENGINE_API) {
            return "engine-api";
        }
        return container.probeDescription().toLowerCase(Locale.ROOT).contains("agent") ? "agent" : "host";
    }

    /**
     * The CPUs the container can run on: the engine's, no more than its {@code --cpuset-cpus} lists, rounded up
     * from its {@code --cpus}; "2" or "1.5".
     */
    static Optional<String> cpus(MachineFacts facts, ContainerLimits limits) {
        double cpus = facts.engineCpus().isPresent() ? facts.engineCpus().getAsInt() : Double.POSITIVE_INFINITY;
        if (limits.cpuset().isPresent()) {
            cpus = Math.min(cpus, cpusetSize(limits.cpuset().get()));
        }
        if (limits.cpus().isPresent()) {
            cpus = Math.min(cpus, limits.cpus().getAsDouble());
        }
        if (Double.isInfinite(cpus) || cpus <= 0) {
            return Optional.empty();
        }
        return Optional.of(cpus == Math.rint(cpus) ? String.valueOf((long) cpus)
                : String.format(Locale.ROOT, "%.2f", cpus).replaceAll("0+$", ""));
    }

    static int cpusetSize(String cpuset) {
        int count = 0;
        for (String part : cpuset.split(",")) {
            String range = part.strip();
            if (range.isEmpty()) {
                continue;
            }
            int dash = range.indexOf('-');
            try {
                count += dash < 0 ? 1 : Integer.parseInt(range.substring(dash + 1).strip())
                        - Integer.parseInt(range.substring(0, dash).strip()) + 1;
            } catch (NumberFormatException e) {
                return Integer.MAX_VALUE; // not a list Vitals can count: it narrows nothing
            }
        }
        return count == 0 ? Integer.MAX_VALUE : count;
    }

    static String limits(ContainerLimits limits) {
        StringBuilder out = new StringBuilder();
        limits.memory().ifPresent(m -> out.append("mem=").append(m.toBytes()));
        limits.cpus().ifPresent(c -> out.append(out.length() > 0 ? " " : "").append("cpus=").append(c));
        limits.cpuset().ifPresent(c -> out.append(out.length() > 0 ? " " : "").append("cpuset=").append(c));
        limits.pids().ifPresent(p -> out.append(out.length() > 0 ? " " : "").append("pids=").append(p));
        return out.length() == 0 ? "none" : out.toString();
    }
}
