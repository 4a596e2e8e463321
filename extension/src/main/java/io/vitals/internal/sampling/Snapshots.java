package io.vitals.internal.sampling;

import io.vitals.DataSize;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.internal.probe.PressureTotals;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** Converts raw readings into the public, typed {@link ResourceSnapshot}. */
public final class Snapshots {

    private Snapshots() {
    }

    public static ResourceSnapshot of(RawReading r, ProbeKind probe) {
        Optional<PressureTotals> pressure = r.pressure();
        return new ResourceSnapshot(r.wallTime(), DataSize.ofBytes(r.workingSetBytes()),
                DataSize.ofBytes(r.memoryChargedBytes()), size(r.memoryLimitBytes()),
                DataSize.ofBytes(r.pageCacheBytes()), DataSize.ofBytes(r.anonymousBytes()), size(r.swapBytes()),
                Duration.ofNanos(r.cpuTotalNanos()), Duration.ofNanos(r.cpuUserNanos()),
                Duration.ofNanos(r.cpuSystemNanos()), r.pids(), DataSize.ofBytes(r.blockReadBytes()),
                DataSize.ofBytes(r.blockWriteBytes()), DataSize.ofBytes(r.networkReceivedBytes()),
                DataSize.ofBytes(r.networkSentBytes()), r.oomKills(), r.limitHits(), r.throttledPeriods(),
                Duration.ofNanos(r.throttledNanos()),
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
