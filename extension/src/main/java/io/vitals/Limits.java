package io.vitals;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.units.Preconditions;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;
import org.testcontainers.containers.GenericContainer;

/**
 * Memory and CPU limits for any Testcontainers container, as {@code docker run --memory 512MiB --cpus 1.5} sets
 * them. Immutable: every method returns a new value, and {@link #applyTo(GenericContainer)} adds one create-command
 * modifier to the container, to take effect when it starts.
 *
 * <pre>{@code
 * @Container
 * static GenericContainer<?> service = Limits.none().memory("512MiB").cpus(1.5)
 *         .applyTo(new GenericContainer<>("vitals/stress:latest"));
 * }</pre>
 *
 * <p>A memory limit also turns swap off ({@code --memory-swap} equal to {@code --memory}), so a container that
 * needs more is OOM-killed instead of slowing down unseen, and {@code memoryHeadroom} budgets have a limit to be
 * judged against. Sizes follow {@link DataSize#parse(String)}: every unit is binary, as in {@code docker run}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Limits {

    /** Docker refuses a memory limit below 6 MiB ("Minimum memory limit allowed is 6MB"). */
    public static final DataSize MINIMUM_MEMORY = DataSize.ofMiB(6);

    private static final Limits NONE = new Limits(Optional.empty(), OptionalDouble.empty());

    private final Optional<DataSize> memory;
    private final OptionalDouble cpus;

    private Limits(Optional<DataSize> memory, OptionalDouble cpus) {
        this.memory = memory;
        this.cpus = cpus;
    }

    /**
     * {@return no limits: the container may use all the host's memory and CPUs, as {@code docker run} without flags}
     */
    public static Limits none() {
        return NONE;
    }

    /**
     * These limits with a memory limit of {@code size}, e.g. {@code "512MiB"} or {@code "2g"}.
     *
     * @param size the memory limit, as {@code docker run --memory} takes it
     * @return new limits; these are unchanged
     * @throws IllegalArgumentException if {@code size} is malformed or below {@link #MINIMUM_MEMORY}
     */
    public Limits memory(String size) {
        Preconditions.notNull(size, "size");
        return memory(DataSize.parse(size));
    }

    /**
     * These limits with a memory limit of {@code size}.
     *
     * @param size the memory limit, at least {@link #MINIMUM_MEMORY}
     * @return new limits; these are unchanged
     * @throws IllegalArgumentException if {@code size} is below {@link #MINIMUM_MEMORY}
     */
    public Limits memory(DataSize size) {
        Preconditions.notNull(size, "size");
        Preconditions.check(!size.isLessThan(MINIMUM_MEMORY),
                "Memory limit %s is below docker's minimum of %s", size, MINIMUM_MEMORY);
        return new Limits(Optional.of(size), cpus);
    }

    /**
     * These limits with a CPU limit of {@code cores}, like {@code docker run --cpus 1.5}: the container gets at
     * most that many cores' worth of CPU time, and is throttled beyond.
     *
     * @param cores the CPU limit in cores, e.g. 1.5
     * @return new limits; these are unchanged
     * @throws IllegalArgumentException if {@code cores} is not a positive finite number
     */
    public Limits cpus(double cores) {
        Preconditions.check(cores > 0 && Double.isFinite(cores),
                "CPU limit must be a positive number of cores, e.g. 1.5: %s", cores);
        return new Limits(memory, OptionalDouble.of(cores));
    }

    /** {@return the memory limit, if any} */
    public Optional<DataSize> memory() {
        return memory;
    }

    /** {@return the CPU limit in cores, if any} */
    public OptionalDouble cpus() {
        return cpus;
    }

    /**
     * Sets these limits on {@code container}, which must not have started yet, and returns it for chaining.
     * Limits set later by other modifiers of the same container win.
     *
     * @param <T> the container's own type, kept for chaining
     * @param container the container to limit, not yet started
     * @return {@code container}
     */
    public <T extends GenericContainer<?>> T applyTo(T container) {
        Preconditions.notNull(container, "container");
        Optional<Long> bytes = memory.map(DataSize::toBytes);
        Optional<Long> nanoCpus = cpus.isPresent() ? Optional.of(Math.round(cpus.getAsDouble() * 1e9))
                : Optional.empty();
        container.withCreateContainerCmdModifier(cmd -> {
            bytes.ifPresent(b -> cmd.getHostConfig().withMemory(b).withMemorySwap(b));
            nanoCpus.ifPresent(n -> cmd.getHostConfig().withNanoCPUs(n));
        });
        return container;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Limits other && memory.equals(other.memory) && cpus.equals(other.cpus);
    }

    @Override
    public int hashCode() {
        return Objects.hash(memory, cpus);
    }

    /** E.g. {@code "memory 512.0 MiB (no swap), cpus 1.5"}, or {@code "no limits"}. */
    @Override
    public String toString() {
        if (memory.isEmpty() && cpus.isEmpty()) {
            return "no limits";
        }
        String mem = memory.map(m -> "memory " + m + " (no swap)").orElse("");
        String cpu = cpus.isPresent() ? "cpus " + cpus.getAsDouble() : "";
        return mem.isEmpty() ? cpu : cpu.isEmpty() ? mem : mem + ", " + cpu;
    }
}
