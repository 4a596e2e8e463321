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
        return ResourceSnapshot.builder().takenAt(r.wallTime()).probe(probe)
                .memoryUsage(DataSize.ofBytes(memory.workingSetBytes()))
                .memoryCharged(DataSize.ofBytes(memory.chargedBytes())).memoryLimit(size(memory.limitBytes()))
                .pageCache(DataSize.ofBytes(memory.pageCacheBytes()))
                .anonymousMemory(DataSize.ofBytes(memory.anonymousBytes())).swap(size(memory.swapBytes()))
                .cpuTime(Duration.ofNanos(cpu.totalNanos())).cpuUserTime(Duration.ofNanos(cpu.userNanos()))
                .cpuSystemTime(Duration.ofNanos(cpu.systemNanos())).pids(r.pids().current())
                .blockRead(DataSize.ofBytes(r.blockIo().readBytes()))
                .blockWrite(DataSize.ofBytes(r.blockIo().writeBytes()))
                .networkReceived(DataSize.ofBytes(r.network().receivedBytes()))
                .networkSent(DataSize.ofBytes(r.network().sentBytes())).oomKills(memory.oomKills())
                .memoryLimitHits(memory.limitHits()).throttledPeriods(cpu.throttledPeriods())
                .throttledTime(Duration.ofNanos(cpu.throttledNanos()))
                .cpuPressure(pressure.map(p -> stall(p.cpuSomeMicros(), p.cpuFullMicros())))
                .memoryPressure(pressure.map(p -> stall(p.memorySomeMicros(), p.memoryFullMicros())))
                .ioPressure(pressure.map(p -> stall(p.ioSomeMicros(), p.ioFullMicros()))).build();
    }

    static Optional<DataSize> size(OptionalLong bytes) {
        return bytes.isPresent() ? Optional.of(DataSize.ofBytes(bytes.getAsLong())) : Optional.empty();
    }

    static PressureStall stall(long someMicros, long fullMicros) {
        return new PressureStall(Duration.ofNanos(someMicros * 1000), Duration.ofNanos(fullMicros * 1000));
    }
}
