package io.vitals.internal.agent;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.probe.BlockIoReading;
import io.vitals.internal.probe.CpuReading;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.probe.MemoryReading;
import io.vitals.internal.probe.NetworkReading;
import io.vitals.internal.probe.PidsReading;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The agent's wire format: requests and answers in {@link DataOutput}'s big-endian encoding, over the agent
 * container's stdin and stdout (see {@link AgentConnection} for why those). Both ends run the same jar (Vitals copies
 * its own into the container), so the format needs no version and the sourced figures travel in
 * {@link Metric#sourced()}'s order.
 *
 * <p>A request is an op byte and a watch id (an int the extension picks per watched container), then the op's
 * arguments: {@code WATCH id pid name} opens the host probe for host PID {@code pid}; {@code FULL id} and
 * {@code FAST id} read (the fast read as {@code HostCgroupProbe.readFast}, from the agent's own last reading);
 * {@code RESET id} resets the memory high-water mark; {@code GONE id} asks whether the container is dying;
 * {@code CLOSE id} closes the probe. An answer is a status byte ({@link #OK}, {@link #GONE_STATUS} with the
 * container-gone message, {@link #ERROR} with the error message) and, for OK, the op's result.
 * {@code BATCH n op1 id1 .. opn idn} is n {@code FAST} or {@code FULL} requests in one (the int after the op is
 * their count): its answer is their n answers, in order, written at once, so that a sampler tick costs the agent
 * one wake-up and one write however many containers it reads (see {@code ReadBatch}).
 *
 * <p>Bytes per sample: a request is 5 bytes; a full reading's answer is 1 + {@value #FULL_BASE_BYTES} bytes plus
 * 9 per sourced figure (more for one absent with a reason, its UTF-8 text): 329 bytes for the recorded cgroup v1
 * tree of the unit tests; a fast reading's answer (CPU, memory, PIDs) 1 + {@value #FAST_BYTES} = 154 bytes. At the
 * default 50 ms with a full read every few ticks that is about 3.5 KB/s per watched container. A batch of n reads
 * costs 5 request bytes per container (its op and id) and 5 for the batch, and one frame header for all. Times are not
 * sent: the extension stamps each reading with its own clocks, as the midpoint of the round trip (of a batch's,
 * for its members: the agent reads them one after the other in its part of that trip).
 */
final class AgentProtocol {

    static final byte WATCH = 'W';
    static final byte FULL = 'F';
    static final byte FAST = 'S';
    static final byte RESET = 'R';
    static final byte GONE = 'G';
    static final byte CLOSE = 'C';
    /** Several FAST or FULL requests in one: their count, then each one's op and id. */
    static final byte BATCH = 'B';
    /** The most requests one BATCH may carry: more means the stream is out of step. */
    static final int MAX_BATCH = 65_536;
    /** Asks the agent to exit; it answers OK first. */
    static final byte QUIT = 'Q';

    static final byte OK = 0;
    static final byte GONE_STATUS = 1;
    static final byte ERROR = 2;

    /** CPU 61, memory 75, PIDs 17 bytes. */
    static final int FAST_BYTES = 61 + 75 + 17;
    /** The fast groups, block I/O 16, network 16, pressure 1 or 49, the sourced figures' count 4. */
    static final int FULL_BASE_BYTES = FAST_BYTES + 16 + 16 + 49 + 4;

    private AgentProtocol() {
    }

    static void writeFull(DataOutput out, RawReading reading) throws IOException {
        writeFast(out, reading);
        out.writeLong(reading.blockIo().readBytes());
        out.writeLong(reading.blockIo().writeBytes());
        out.writeLong(reading.network().receivedBytes());
        out.writeLong(reading.network().sentBytes());
        Optional<PressureTotals> pressure = reading.pressure();
        out.writeBoolean(pressure.isPresent());
        if (pressure.isPresent()) {
            PressureTotals p = pressure.get();
            for (long value : new long[] {p.cpuSomeMicros(), p.cpuFullMicros(), p.memorySomeMicros(),
                p.memoryFullMicros(), p.ioSomeMicros(), p.ioFullMicros()}) {
                out.writeLong(value);
            }
        }
        List<Metric> sourced = Metric.sourced();
        out.writeInt(sourced.size());
        for (Metric metric : sourced) {
            out.writeDouble(reading.sourced().read(metric));
            Optional<String> reason = reading.sourced().reason(metric);
            out.writeBoolean(reason.isPresent());
            if (reason.isPresent()) {
                out.writeUTF(reason.get());
            }
        }
    }

    static RawReading readFull(DataInput in, long monotonicNanos, Instant wallTime) throws IOException {
        RawReading.Builder builder = RawReading.builder().at(monotonicNanos, wallTime);
        builder.cpu(readCpu(in)).memory(readMemory(in)).pids(readPids(in));
        builder.blockIo(new BlockIoReading(in.readLong(), in.readLong()));
        builder.network(new NetworkReading(in.readLong(), in.readLong()));
        if (in.readBoolean()) {
            builder.pressure(Optional.of(new PressureTotals(in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong(), in.readLong())));
        }
        List<Metric> sourced = Metric.sourced();
        int count = in.readInt();
        if (count != sourced.size()) {
            throw new IOException("the agent sent " + count + " sourced figures, this Vitals knows " + sourced.size()
                    + ": the agent runs another Vitals version");
        }
        SourcedFigures.Builder figures = SourcedFigures.builder();
        for (Metric metric : sourced) {
            double value = in.readDouble();
            if (in.readBoolean()) {
                figures.unavailable(metric, in.readUTF());
            } else {
                figures.set(metric, value);
            }
        }
        return builder.sourced(figures.build()).build();
    }

    /** The groups a fast read refreshes: CPU, memory and PIDs. */
    static void writeFast(DataOutput out, RawReading reading) throws IOException {
        CpuReading cpu = reading.cpu();
        out.writeLong(cpu.totalNanos());
        out.writeLong(cpu.userNanos());
        out.writeLong(cpu.systemNanos());
        writeOptional(out, cpu.hostNanos());
        out.writeInt(cpu.onlineCpus());
        out.writeLong(cpu.periods());
        out.writeLong(cpu.throttledPeriods());
        out.writeLong(cpu.throttledNanos());
        MemoryReading memory = reading.memory();
        out.writeLong(memory.chargedBytes());
        out.writeLong(memory.inactiveFileBytes());
        out.writeLong(memory.pageCacheBytes());
        out.writeLong(memory.anonymousBytes());
        writeOptional(out, memory.swapBytes());
        writeOptional(out, memory.limitBytes());
        writeOptional(out, memory.highWaterMarkBytes());
        out.writeLong(memory.limitHits());
        out.writeLong(memory.oomKills());
        out.writeLong(reading.pids().current());
        writeOptional(out, reading.pids().limit());
    }

    /** {@code last} with the fast groups read from {@code in}, as {@code RawReading.withFastCounters} makes it. */
    static RawReading readFast(DataInput in, RawReading last, long monotonicNanos, Instant wallTime)
            throws IOException {
        return readFastCounters(in).applyTo(last, monotonicNanos, wallTime);
    }

    /** The groups of a fast answer, read before the reading they refresh is known (a batch's answers). */
    static FastCounters readFastCounters(DataInput in) throws IOException {
        return new FastCounters(readCpu(in), readMemory(in), readPids(in));
    }

    /** What a fast answer carries: CPU, memory and PIDs. */
    record FastCounters(CpuReading cpu, MemoryReading memory, PidsReading pids) {

        /** {@code last} with these groups, as {@code RawReading.withFastCounters} makes it. */
        RawReading applyTo(RawReading last, long monotonicNanos, Instant wallTime) {
            return last.withFastCounters(monotonicNanos, wallTime, cpu, memory, pids);
        }
    }

    private static CpuReading readCpu(DataInput in) throws IOException {
        return CpuReading.builder().usage(in.readLong(), in.readLong(), in.readLong()).hostNanos(readOptional(in))
                .onlineCpus(in.readInt()).throttling(in.readLong(), in.readLong(), in.readLong()).build();
    }

    private static MemoryReading readMemory(DataInput in) throws IOException {
        return MemoryReading.builder().charged(in.readLong()).inactiveFile(in.readLong()).pageCache(in.readLong())
                .anonymous(in.readLong()).swap(readOptional(in)).limit(readOptional(in))
                .highWaterMark(readOptional(in)).limitHits(in.readLong()).oomKills(in.readLong()).build();
    }

    private static PidsReading readPids(DataInput in) throws IOException {
        return new PidsReading(in.readLong(), readOptional(in));
    }

    /** The host shape the agent measures on: its row and facts, as {@code HostCgroupProbe.hostShape} found them. */
    static void writeShape(DataOutput out, HostShape shape) throws IOException {
        out.writeUTF(shape.row().id());
        writeOptionalText(out, shape.cgroup());
        writeOptionalText(out, shape.kernel());
        out.writeByte(shape.root().map(root -> root ? 1 : 0).orElse(2));
        writeOptionalText(out, shape.engine());
        out.writeBoolean(shape.peakResettable());
    }

    static HostShape readShape(DataInput in) throws IOException {
        HostShape.Row row = HostShape.Row.ofId(in.readUTF());
        Optional<String> cgroup = readOptionalText(in);
        Optional<String> kernel = readOptionalText(in);
        byte root = in.readByte();
        Optional<String> engine = readOptionalText(in);
        return new HostShape(row, cgroup, kernel, root == 2 ? Optional.empty() : Optional.of(root == 1), engine,
                in.readBoolean());
    }

    static void writeOptionalText(DataOutput out, Optional<String> text) throws IOException {
        out.writeBoolean(text.isPresent());
        if (text.isPresent()) {
            out.writeUTF(text.get());
        }
    }

    static Optional<String> readOptionalText(DataInput in) throws IOException {
        return in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
    }

    private static void writeOptional(DataOutput out, OptionalLong value) throws IOException {
        out.writeBoolean(value.isPresent());
        out.writeLong(value.orElse(0));
    }

    private static OptionalLong readOptional(DataInput in) throws IOException {
        boolean present = in.readBoolean();
        long value = in.readLong();
        return present ? OptionalLong.of(value) : OptionalLong.empty();
    }
}
