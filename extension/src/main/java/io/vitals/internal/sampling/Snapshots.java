package io.vitals.internal.sampling;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.internal.probe.CpuReading;
import io.vitals.internal.probe.MemoryReading;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/** Converts raw readings into the public, typed {@link ResourceSnapshot}. */
@API(status = INTERNAL, since = "0.1")
public final class Snapshots {

    private Snapshots() {
    }

    public static ResourceSnapshot of(RawReading r, ProbeKind probe) {
        MemoryReading memory = r.memory();
        CpuReading cpu = r.cpu();
        Optional<PressureTotals> pressure = r.pressure();
        return new ResourceSnapshot(r.wallTime(), DataSize.ofBytes(memory.workingSetBytes()),
                DataSize.ofBytes(memory.chargedBytes()), size(memory.limitBytes()),
                DataSize.ofBytes(memory.pageCacheBytes()), DataSize.ofBytes(memory.anonymousBytes()),
                size(memory.swapBytes()), Duration.ofNanos(cpu.totalNanos()), Duration.ofNanos(cpu.userNanos()),
                Duration.ofNanos(cpu.systemNanos()), r.pids().current(), DataSize.ofBytes(r.blockIo().readBytes()),
                DataSize.ofBytes(r.blockIo().writeBytes()), DataSize.ofBytes(r.network().receivedBytes()),
                DataSize.ofBytes(r.network().sentBytes()), memory.oomKills(), memory.limitHits(),
                cpu.throttledPeriods(), Duration.ofNanos(cpu.throttledNanos()),
                pressure.map(p -> stall(p.cpuSomeMicros(), p.cpuFullMicros())),
                pressure.map(p -> stall(p.memorySomeMicros(), p.memoryFullMicros())),
                pressure.map(p -> stall(p.ioSomeMicros(), p.ioFullMicros())), probe);
    }

    static Optional<DataSize> size(OptionalLong bytes) {
        return bytes.isPresent() ? Optional.of(DataSize.ofBytes(bytes.getAsLong())) : Optional.empty();
    }

    static PressureStall stall(long someMicros, long fullMicros) {
        return new PressureStall(Duration.ofNanos(someMicros * 1000), Duration.ofNanos(fullMicros * 1000));
    }
}
