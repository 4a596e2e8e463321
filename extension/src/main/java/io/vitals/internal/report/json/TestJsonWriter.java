package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.PressureStall;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.regression.suggest.BudgetSuggestion;
import io.vitals.internal.report.suggest.SuggestedBudgetsWriter;
import io.vitals.internal.source.SourceKinds;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.apiguardian.api.API;

/**
 * Writes one test as a {@value #SCHEMA} document (see {@code docs/report-format.md} and
 * {@code io/vitals/report/vitals-test-1.schema.json}).
 *
 * <p>Approach: a streaming generator rather than a tree, since a run may write a thousand of these. Every key is
 * always present, absent values are {@code null}, so consumers can rely on one shape. Durations are seconds
 * (doubles, nanosecond precision) except the timeline's offsets, which are whole milliseconds to keep the arrays
 * short; sizes are whole bytes.
 */
@API(status = INTERNAL, since = "0.1")
public final class TestJsonWriter {

    public static final String SCHEMA = "vitals-test/1";

    private final JsonFactory factory;

    public TestJsonWriter(JsonFactory factory) {
        this.factory = factory;
    }

    public byte[] write(TestResult result) {
        return write(result, List.of());
    }

    /** The test with the budgets suggested from its run history ({@code suggestedBudgets}, empty without one). */
    public byte[] write(TestResult result, List<BudgetSuggestion> suggestions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("schema", SCHEMA);
            writeTest(json, result);
            json.writeArrayFieldStart("containers");
            for (ContainerResult container : result.containers()) {
                writeContainer(json, container);
            }
            json.writeEndArray();
            writeSuggestions(json, suggestions);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Failed to write the JSON report of " + result.uniqueId(), e);
        }
        return out.toByteArray();
    }

    private static void writeSuggestions(JsonGenerator json, List<BudgetSuggestion> suggestions) throws IOException {
        json.writeObjectFieldStart("suggestedBudgets");
        Map<String, List<BudgetSuggestion>> byTarget = new LinkedHashMap<>();
        for (BudgetSuggestion s : suggestions) {
            byTarget.computeIfAbsent(s.container() + "\u0000" + s.phase(), k -> new java.util.ArrayList<>()).add(s);
        }
        json.writeArrayFieldStart("annotations");
        for (List<BudgetSuggestion> target : byTarget.values()) {
            json.writeString(BudgetSuggestion.annotation(target));
        }
        json.writeEndArray();
        json.writeArrayFieldStart("budgets");
        for (BudgetSuggestion s : suggestions) {
            SuggestedBudgetsWriter.writeBudget(json, s);
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeTest(JsonGenerator json, TestResult result) throws IOException {
        json.writeObjectFieldStart("test");
        json.writeStringField("uniqueId", result.uniqueId());
        json.writeStringField("className", result.className());
        json.writeStringField("methodName", result.methodName());
        json.writeStringField("displayName", result.displayName());
        string(json, "parameters", result.parameters());
        json.writeStringField("outcome", result.outcome().name());
        string(json, "failureMessage", result.failureMessage());
        json.writeStringField("startedAt", result.startedAt().toString());
        seconds(json, "durationSeconds", result.duration());
        json.writeBooleanField("breached", result.hasBreaches());
        json.writeEndObject();
    }

    private static void writeContainer(JsonGenerator json, ContainerResult container) throws IOException {
        ResourceUsage usage = container.usage();
        json.writeStartObject();
        json.writeStringField("name", container.name());
        json.writeStringField("image", container.image());
        writeLimits(json, container.limits());
        json.writeStringField("probe", usage.probe().name());
        json.writeStringField("probeDescription", container.probeDescription());
        ExactnessJson.write(json, container);
        seconds(json, "samplingIntervalSeconds", usage.timeline().samplingInterval());
        // a counter the host did not measure is null in the snapshots and the timeline too, as in the usage
        Absent absent = Absent.of(usage);
        json.writeFieldName("before");
        writeSnapshot(json, usage.before(), absent);
        json.writeFieldName("after");
        writeSnapshot(json, usage.after(), absent);
        json.writeFieldName("usage");
        writeUsage(json, usage, true);
        writeTimeline(json, usage.timeline(), absent);
        json.writeArrayFieldStart("phases");
        for (ResourceUsage.Phase phase : usage.phases()) {
            json.writeStartObject();
            json.writeStringField("name", phase.name());
            seconds(json, "startSeconds", phase.start());
            json.writeFieldName("usage");
            writeUsage(json, phase.usage(), false);
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("budgets");
        for (BudgetResult budget : container.budgets()) {
            writeBudget(json, budget);
        }
        json.writeEndArray();
        writeFault(json, container.fault());
        json.writeArrayFieldStart("logTail");
        for (String line : container.logTail()) {
            json.writeString(line);
        }
        json.writeEndArray();
        OverlapJson.write(json, container.overlap());
        json.writeEndObject();
    }

    private static void writeLimits(JsonGenerator json, ContainerLimits limits) throws IOException {
        json.writeObjectFieldStart("limits");
        bytes(json, "memoryBytes", limits.memory());
        if (limits.cpus().isPresent()) {
            json.writeNumberField("cpus", limits.cpus().getAsDouble());
        } else {
            json.writeNullField("cpus");
        }
        string(json, "cpuset", limits.cpuset());
        string(json, "gpus", limits.gpus());
        if (limits.pids().isPresent()) {
            json.writeNumberField("pids", limits.pids().getAsLong());
        } else {
            json.writeNullField("pids");
        }
        json.writeEndObject();
    }

    /** Which raw counters of a container's snapshots and timeline {@link ReportedFigure} says were not measured. */
    private record Absent(boolean blockRead, boolean blockWrite, boolean oomKills) {

        static Absent of(ResourceUsage usage) {
            return new Absent(ReportedFigure.of(Metric.BLOCK_READ, usage).isNotMeasured(),
                    ReportedFigure.of(Metric.BLOCK_WRITE, usage).isNotMeasured(),
                    ReportedFigure.oomKills(usage).isNotMeasured());
        }
    }

    private static void counter(JsonGenerator json, String name, long value, boolean absent) throws IOException {
        if (absent) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, value);
        }
    }

    private static void writeSnapshot(JsonGenerator json, ResourceSnapshot s, Absent absent) throws IOException {
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

    // Every figure first, from the metric entries; then the details behind them (how the peak was measured, the
    // split of CPU time, counts of events, pressure), which no budget is set on.
    // A phase's lanes are the test's, cut: only the test's usage keeps them.
    private static void writeUsage(JsonGenerator json, ResourceUsage u, boolean lanes) throws IOException {
        json.writeStartObject();
        MetricJson.writeFields(json, u);
        if (lanes) {
            writeLanes(json, u);
        }
        json.writeObjectFieldStart("peakMemory");
        json.writeNumberField("bytes", u.peak().value().toBytes());
        seconds(json, "atSeconds", u.peak().at());
        json.writeStringField("method", u.peak().method().name());
        json.writeStringField("description", u.peak().describeMethod());
        seconds(json, "samplingIntervalSeconds", u.peak().samplingInterval());
        json.writeEndObject();
        bytes(json, "peakMemoryHighWaterMarkBytes", u.peakMemoryHighWaterMark());
        bytes(json, "memoryLimitBytes", u.memoryLimit());
        seconds(json, "cpuUserSeconds", u.cpuUserTime());
        seconds(json, "cpuSystemSeconds", u.cpuSystemTime());
        json.writeNumberField("peakCpuPercent", u.peakCpuPercent().value());
        json.writeNumberField("throttledPeriods", u.throttledPeriods());
        MetricJson.writeOomKills(json, u);
        json.writeNumberField("memoryLimitHits", u.memoryLimitHits());
        writePressure(json, u.pressureStallCpu(), u.pressureStallMemory(), u.pressureStallIo());
        json.writeEndObject();
    }

    private static void writeLanes(JsonGenerator json, ResourceUsage u) throws IOException {
        json.writeArrayFieldStart("lanes");
        for (Lane lane : SourceKinds.lanes(u)) {
            json.writeStartObject();
            json.writeStringField("key", lane.key());
            json.writeStringField("title", lane.title());
            json.writeStringField("unit", lane.unit().name());
            json.writeArrayFieldStart("budgetAttributes");
            for (String attribute : lane.budgetAttributes()) {
                json.writeString(attribute);
            }
            json.writeEndArray();
            long[] offsets = lane.offsets().stream().mapToLong(Duration::toMillis).toArray();
            json.writeFieldName("offsetMs");
            json.writeArray(offsets, 0, offsets.length);
            json.writeArrayFieldStart("series");
            for (Lane.Series series : lane.series()) {
                json.writeStartObject();
                json.writeStringField("key", series.key());
                json.writeStringField("label", series.label());
                json.writeArrayFieldStart("values");
                for (double value : series.values()) {
                    if (Double.isNaN(value)) {
                        json.writeNull();
                    } else {
                        json.writeNumber(value);
                    }
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writePressure(JsonGenerator json, Optional<PressureStall> cpu, Optional<PressureStall> memory,
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

    private static void writeTimeline(JsonGenerator json, Timeline timeline, Absent absent) throws IOException {
        List<TimelinePoint> points = timeline.points();
        json.writeObjectFieldStart("timeline");
        json.writeNumberField("samples", timeline.samples());
        json.writeNumberField("readErrors", timeline.readErrors());
        json.writeBooleanField("compacted", timeline.isCompacted());
        longs(json, "offsetMs", points, p -> p.offset().toMillis());
        doubles(json, "cpuPercent", points, TimelinePoint::cpuPercent);
        longs(json, "memoryBytes", points, p -> p.memory().toBytes());
        longs(json, "pids", points, TimelinePoint::pids);
        doubles(json, "cpuSeconds", points, p -> Figures.seconds(p.cpuTime()));
        if (absent.blockRead()) {
            json.writeNullField("blockReadBytes");
        } else {
            longs(json, "blockReadBytes", points, p -> p.blockRead().toBytes());
        }
        if (absent.blockWrite()) {
            json.writeNullField("blockWriteBytes");
        } else {
            longs(json, "blockWriteBytes", points, p -> p.blockWrite().toBytes());
        }
        longs(json, "netRxBytes", points, p -> p.networkReceived().toBytes());
        longs(json, "netTxBytes", points, p -> p.networkSent().toBytes());
        json.writeEndObject();
    }

    // Arrays on one line: the pretty printer would otherwise spend a line on each of thousands of numbers.
    private static void longs(JsonGenerator json, String name, List<TimelinePoint> points,
            ToLongFunction<TimelinePoint> value) throws IOException {
        long[] values = new long[points.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value.applyAsLong(points.get(i));
        }
        json.writeFieldName(name);
        json.writeArray(values, 0, values.length);
    }

    private static void doubles(JsonGenerator json, String name, List<TimelinePoint> points,
            ToDoubleFunction<TimelinePoint> value) throws IOException {
        double[] values = new double[points.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value.applyAsDouble(points.get(i));
        }
        json.writeFieldName(name);
        json.writeArray(values, 0, values.length);
    }

    private static void writeBudget(JsonGenerator json, BudgetResult b) throws IOException {
        json.writeStartObject();
        json.writeStringField("attribute", b.name());
        json.writeStringField("limit", b.limit().text());
        json.writeNumberField("limitValue", b.limit().value());
        json.writeStringField("actual", b.actualText());
        json.writeNumberField("actualValue", b.actual().orElse(Double.NaN));
        json.writeBooleanField("passed", b.passed());
        json.writeBooleanField("measurable", b.status() != BudgetStatus.NOT_MEASURABLE);
        if (b.marginPercent().isPresent()) {
            json.writeNumberField("marginPercent", b.marginPercent().getAsDouble());
        } else {
            json.writeNullField("marginPercent");
        }
        json.writeStringField("method", b.method());
        if (b.at().isPresent()) {
            seconds(json, "atSeconds", b.at().get());
        } else {
            json.writeNullField("atSeconds");
        }
        string(json, "note", b.note());
        json.writeEndObject();
    }

    private static void writeFault(JsonGenerator json, Optional<ContainerFault> fault) throws IOException {
        if (fault.isEmpty()) {
            json.writeNullField("fault");
            return;
        }
        ContainerFault f = fault.get();
        json.writeObjectFieldStart("fault");
        json.writeStringField("kind", f.kind().name());
        if (f.exitCode().isPresent()) {
            json.writeNumberField("exitCode", f.exitCode().getAsLong());
        } else {
            json.writeNullField("exitCode");
        }
        if (f.at().isPresent()) {
            seconds(json, "atSeconds", f.at().get());
        } else {
            json.writeNullField("atSeconds");
        }
        if (f.lastSeen().isPresent()) {
            seconds(json, "lastSeenSeconds", f.lastSeen().get());
        } else {
            json.writeNullField("lastSeenSeconds");
        }
        json.writeBooleanField("partialWindow", f.partialWindow());
        json.writeStringField("description", f.description());
        json.writeEndObject();
    }

    private static void seconds(JsonGenerator json, String name, Duration duration) throws IOException {
        json.writeNumberField(name, Figures.seconds(duration));
    }

    private static void bytes(JsonGenerator json, String name, Optional<DataSize> size) throws IOException {
        if (size.isPresent()) {
            json.writeNumberField(name, size.get().toBytes());
        } else {
            json.writeNullField(name);
        }
    }

    private static void string(JsonGenerator json, String name, Optional<String> value) throws IOException {
        if (value.isPresent()) {
            json.writeStringField(name, value.get());
        } else {
            json.writeNullField(name);
        }
    }
}
