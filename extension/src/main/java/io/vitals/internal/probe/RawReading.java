package io.vitals.internal.probe;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.LiveSample;
import io.vitals.internal.metric.SourcedFigures;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One reading of a container's counters and gauges, in raw units (bytes, nanoseconds), as its sources found them.
 *
 * <p>Figures come in groups, one record each, so that a reading is built and read by name rather than by the
 * position of one of two dozen longs. The base probe (cgroup files or the Engine API) fills the base groups;
 * further {@link ReadingSource}s add theirs to {@link #extras()}. Inside the groups figures stay primitives because
 * the sampler makes one of these per container every few milliseconds; the public, typed view is
 * {@link io.vitals.ResourceSnapshot}. Values a probe cannot obtain are empty optionals, never zero, so that "not
 * measured" is never mistaken for "measured as nothing".
 *
 * @param monotonicNanos {@link System#nanoTime()} when the reading was taken; only differences are meaningful
 * @param wallTime wall-clock time of the reading, for reports
 * @param cpu CPU time used and throttled
 * @param memory memory charged, its parts, limit, high-water mark and OOM events
 * @param pids tasks in the container and their limit
 * @param blockIo bytes read from and written to block devices
 * @param network bytes received and sent (loopback excluded)
 * @param pressure pressure-stall totals, where the host exposes them
 * @param sourced the figures declared by {@link io.vitals.internal.metric.FigureSource}s, from the last full read: a
 *     fast read carries the same instance over, so a window can tell a fresh read of them from a stale one
 * @param extras the groups further sources added (GPU), each available or not; {@link Extras#NONE} without any
 */
@API(status = INTERNAL, since = "0.1")
public record RawReading(
        long monotonicNanos,
        Instant wallTime,
        CpuReading cpu,
        MemoryReading memory,
        PidsReading pids,
        BlockIoReading blockIo,
        NetworkReading network,
        Optional<PressureTotals> pressure,
        SourcedFigures sourced,
        Extras extras) implements LiveSample {

    public RawReading {
        Objects.requireNonNull(wallTime, "wallTime");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(pids, "pids");
        Objects.requireNonNull(blockIo, "blockIo");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(pressure, "pressure");
        Objects.requireNonNull(sourced, "sourced");
        Objects.requireNonNull(extras, "extras");
    }

    @Override
    public long workingSetBytes() {
        return memory.workingSetBytes();
    }

    @Override
    public long currentPids() {
        return pids.current();
    }

    /** A builder in which every base group must be set; pressure defaults to none and extras to {@link Extras#NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this reading's groups, to which a source adds its own. */
    public Builder toBuilder() {
        Builder builder = new Builder().at(monotonicNanos, wallTime).cpu(cpu).memory(memory).pids(pids)
                .blockIo(blockIo).network(network).pressure(pressure).sourced(sourced);
        extras.groups().forEach(builder::extra);
        return builder;
    }

    /** The extra group under {@code key}: its figures, or why it has none in this reading. */
    public <T> Extra<T> extra(ExtraKey<T> key) {
        return extras.get(key);
    }

    /**
     * This reading with the groups a fast (tiered) read refreshes replaced, and every other figure carried over,
     * extras included: the sampler reads the fast counters every tick and the full set only every few ticks and at
     * the edges of a window, where the differences that make a report's counters are taken.
     */
    public RawReading withFastCounters(long monotonicNanos, Instant wallTime, CpuReading cpu, MemoryReading memory,
            PidsReading pids) {
        return new RawReading(monotonicNanos, wallTime, cpu, memory, pids, blockIo, network, pressure, sourced,
                extras);
    }

    /** This reading with {@code extras} in place of its own: a fast read carries the last full read's over. */
    public RawReading withExtras(Extras extras) {
        return extras == this.extras ? this
                : new RawReading(monotonicNanos, wallTime, cpu, memory, pids, blockIo, network, pressure, sourced,
                        extras);
    }

    /**
     * Collects a reading group by group. A base group left unset is an error, not a zero: a probe that forgot a
     * group would otherwise report that nothing was used.
     */
    public static final class Builder {

        private long monotonicNanos;
        private Instant wallTime;
        private CpuReading cpu;
        private MemoryReading memory;
        private PidsReading pids;
        private BlockIoReading blockIo;
        private NetworkReading network;
        private Optional<PressureTotals> pressure = Optional.empty();
        private SourcedFigures sourced;
        /** Made on the first extra: a base probe's full read, every few hundred milliseconds, needs none. */
        private Map<ExtraKey<?>, Extra<?>> extras;

        private Builder() {
        }

        public Builder at(long monotonicNanos, Instant wallTime) {
            this.monotonicNanos = monotonicNanos;
            this.wallTime = Objects.requireNonNull(wallTime, "wallTime");
            return this;
        }

        public Builder cpu(CpuReading cpu) {
            this.cpu = Objects.requireNonNull(cpu, "cpu");
            return this;
        }

        public Builder memory(MemoryReading memory) {
            this.memory = Objects.requireNonNull(memory, "memory");
            return this;
        }

        public Builder pids(PidsReading pids) {
            this.pids = Objects.requireNonNull(pids, "pids");
            return this;
        }

        public Builder blockIo(BlockIoReading blockIo) {
            this.blockIo = Objects.requireNonNull(blockIo, "blockIo");
            return this;
        }

        public Builder network(NetworkReading network) {
            this.network = Objects.requireNonNull(network, "network");
            return this;
        }

        public Builder pressure(Optional<PressureTotals> pressure) {
            this.pressure = Objects.requireNonNull(pressure, "pressure");
            return this;
        }

        /** The sourced figures; required, like a base group, so that a probe cannot forget them. */
        public Builder sourced(SourcedFigures sourced) {
            this.sourced = Objects.requireNonNull(sourced, "sourced");
            return this;
        }

        /** Adds (or replaces) the figures of one extra group. */
        public <T> Builder extra(ExtraKey<T> key, T figures) {
            return extra(key, Extra.of(figures));
        }

        /** Marks one extra group unavailable in this reading, saying why ("no GPU visible"). */
        public Builder unavailable(ExtraKey<?> key, String reason) {
            return extra(key, Extra.unavailable(reason));
        }

        /** Adds (or replaces) one extra group, available or not. */
        public Builder extra(ExtraKey<?> key, Extra<?> extra) {
            Objects.requireNonNull(key, "key");
            Extras.checkType(key, extra);
            if (extras == null) {
                extras = new LinkedHashMap<>();
            }
            extras.put(key, extra);
            return this;
        }

        /** Whether a source has put anything, available or not, under {@code key}. */
        public boolean has(ExtraKey<?> key) {
            return extras != null && extras.containsKey(key);
        }

        public RawReading build() {
            return new RawReading(monotonicNanos, require(wallTime, "time"), require(cpu, "cpu"),
                    require(memory, "memory"), require(pids, "pids"), require(blockIo, "blockIo"),
                    require(network, "network"), pressure, require(sourced, "sourced"),
                    extras == null ? Extras.NONE : new Extras(extras));
        }

        private static <T> T require(T group, String name) {
            if (group == null) {
                throw new IllegalStateException("reading has no " + name + " group: every base group must be set");
            }
            return group;
        }
    }
}
