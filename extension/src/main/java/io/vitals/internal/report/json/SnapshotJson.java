package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.counter;
import static io.vitals.internal.report.json.JsonValues.seconds;

import io.vitals.PressureStall;
import io.vitals.ResourceSnapshot;

import java.io.IOException;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonGenerator;

/** A container's {@code before} and {@code after} snapshots, and the pressure-stall object they share with usages. */
final class SnapshotJson {

    private SnapshotJson() {
    }

    static void write(JsonGenerator json, ResourceSnapshot s, UnmeasuredCounters absent) throws IOException {
        json.writeStartObject();
        json.writeStringField("takenAt", s.takenAt().toString());
        json.writeNumberField("memoryUsageBytes", s.memoryUsage().toBytes());
        json.writeNumberField("memoryChargedBytes", s.memoryCharged().toBytes());
        bytes(json, "memoryLimitBytes", s.memoryLimit());
        json.writeNumberField("pageCacheBytes", s.pageCache().toBytes());
        json.writeNumberField("anonymousMemoryBytes", s.anonymousMemory().toBytes());
        bytes(json, "swapBytes", s.swap());
        seconds(json, "cpuSeconds", s.cpuTime());
        seconds(json, "cpuUserSeconds", s.cpuUserTime());
        seconds(json, "cpuSystemSeconds", s.cpuSystemTime());
        json.writeNumberField("pids", s.pids());
        counter(json, "blockReadBytes", s.blockRead().toBytes(), absent.blockRead());
        counter(json, "blockWriteBytes", s.blockWrite().toBytes(), absent.blockWrite());
        json.writeNumberField("networkReceivedBytes", s.networkReceived().toBytes());
        json.writeNumberField("networkSentBytes", s.networkSent().toBytes());
        counter(json, "oomKills", s.oomKills(), absent.oomKills());
        json.writeNumberField("memoryLimitHits", s.memoryLimitHits());
        json.writeNumberField("throttledPeriods", s.throttledPeriods());
        seconds(json, "throttledSeconds", s.throttledTime());
        writePressure(json, s.cpuPressure(), s.memoryPressure(), s.ioPressure());
        json.writeStringField("probe", s.probe().name());
        json.writeEndObject();
    }

    /** {@code "pressureStall": {"cpu": …, "memory": …, "io": …}}, each {@code null} where the host has no PSI. */
    static void writePressure(JsonGenerator json, Optional<PressureStall> cpu, Optional<PressureStall> memory,
            Optional<PressureStall> io) throws IOException {
        json.writeObjectFieldStart("pressureStall");
        stall(json, "cpu", cpu);
        stall(json, "memory", memory);
        stall(json, "io", io);
        json.writeEndObject();
    }

    private static void stall(JsonGenerator json, String name, Optional<PressureStall> stall) throws IOException {
        if (stall.isEmpty()) {
            json.writeNullField(name);
            return;
        }
        json.writeObjectFieldStart(name);
        seconds(json, "someSeconds", stall.get().some());
        seconds(json, "fullSeconds", stall.get().full());
        json.writeEndObject();
    }
}
