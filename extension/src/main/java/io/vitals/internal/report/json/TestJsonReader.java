package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.PeakMemory;
import io.vitals.Percentage;
import io.vitals.PressureStall;
import io.vitals.ProbeKind;
import io.vitals.ResourceSnapshot;
import io.vitals.ResourceUsage;
import io.vitals.Timeline;
import io.vitals.TimelinePoint;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.SourceKind;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;
import io.vitals.internal.source.SourceKinds;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apiguardian.api.API;

/**
 * Reads a {@value TestJsonWriter#SCHEMA} document back into a {@link TestResult}, so that report directories of
 * several shards can be merged into one run. What the writer rounds stays rounded (timeline offsets are whole
 * milliseconds); everything the run-wide reports show survives exactly.
 */
@API(status = INTERNAL, since = "0.1")
public final class TestJsonReader {

    private final ObjectMapper mapper;

    public TestJsonReader(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** @throws IOException naming {@code source} and the field, if it is not a readable document */
    public TestResult read(byte[] json, String source) throws IOException {
        JsonNode root = mapper.readTree(json);
        if (root == null || !TestJsonWriter.SCHEMA.equals(root.path("schema").asText())) {
            throw new IOException(source + ": not a " + TestJsonWriter.SCHEMA + " document (its \"schema\" is "
                    + (root == null ? "missing" : root.path("schema")) + ")");
        }
        try {
            JsonNode t = root.get("test");
            List<ContainerResult> containers = new ArrayList<>();
            for (JsonNode c : root.get("containers")) {
                containers.add(container(c));
            }
            return new TestResult(t.get("uniqueId").asText(), t.get("className").asText(),
                    t.get("methodName").asText(), t.get("displayName").asText(), text(t.get("parameters")),
                    TestResult.Outcome.valueOf(t.get("outcome").asText()), text(t.get("failureMessage")),
                    Instant.parse(t.get("startedAt").asText()), seconds(t.get("durationSeconds")), containers);
        } catch (RuntimeException e) {
            throw new IOException(source + ": a field is missing or has the wrong type (" + e + ")", e);
        }
    }

    private static ContainerResult container(JsonNode c) {
        JsonNode l = c.get("limits");
        ContainerLimits limits = new ContainerLimits(bytes(l.get("memoryBytes")),
                l.get("cpus").isNull() ? OptionalDouble.empty() : OptionalDouble.of(l.get("cpus").asDouble()),
                text(l.get("cpuset")), l.get("pids").isNull() ? OptionalLong.empty()
                        : OptionalLong.of(l.get("pids").asLong()), text(l.get("gpus")));
        ProbeKind probe = ProbeKind.valueOf(c.get("probe").asText());
        Duration interval = seconds(c.get("samplingIntervalSeconds"));
        ResourceSnapshot before = snapshot(c.get("before"));
        ResourceSnapshot after = snapshot(c.get("after"));
        Timeline timeline = timeline(c.get("timeline"), interval);
        List<ResourceUsage.Phase> phases = new ArrayList<>();
        String name = c.get("name").asText();
        String image = c.get("image").asText();
        for (JsonNode p : c.get("phases")) {
            // a phase's JSON holds its figures only; its snapshots and timeline are the test's
            phases.add(new ResourceUsage.Phase(p.get("name").asText(), seconds(p.get("startSeconds")),
                    usage(p.get("usage"), name, image, probe, before, after,
                            new Timeline(List.of(), interval, 0, 0), List.of())));
        }
        ResourceUsage usage = usage(c.get("usage"), name, image, probe, before, after, timeline, phases);
        List<BudgetResult> budgets = new ArrayList<>();
        for (JsonNode b : c.get("budgets")) {
            budgets.add(budget(b));
        }
        Optional<ContainerFault> fault = Optional.empty();
        JsonNode f = c.get("fault");
        if (!f.isNull()) {
            fault = Optional.of(new ContainerFault(ContainerFault.Kind.valueOf(f.get("kind").asText()),
                    f.get("exitCode").isNull() ? OptionalLong.empty() : OptionalLong.of(f.get("exitCode").asLong()),
                    f.get("atSeconds").isNull() ? Optional.empty() : Optional.of(seconds(f.get("atSeconds"))),
                    // absent in files written before engine faults were reported
                    f.path("lastSeenSeconds").isNumber() ? Optional.of(seconds(f.get("lastSeenSeconds")))
                            : Optional.empty(),
                    f.get("description").asText()));
        }
        List<String> logTail = new ArrayList<>();
        c.get("logTail").forEach(line -> logTail.add(line.asText()));
        if (!c.has("hostShape") || !c.has("exactness")) {
            // the one field set an earlier version of this schema lacked: say so, rather than a null pointer
            throw new IllegalArgumentException("container '" + name + "' has no \"hostShape\" and \"exactness\": "
                    + "written by a Vitals version before host shapes were reported; merge report directories "
                    + "written by one version");
        }
        return new ContainerResult(name, image, limits, usage, c.get("probeDescription").asText(),
                ExactnessJson.readShape(c.get("hostShape")), ExactnessJson.readMeasuredFromStart(c.get("exactness")),
                budgets, fault, logTail, OverlapJson.read(c));
    }

    private static ResourceUsage usage(JsonNode u, String name, String image, ProbeKind probe,
            ResourceSnapshot before, ResourceSnapshot after, Timeline timeline, List<ResourceUsage.Phase> phases) {
        JsonNode peak = u.get("peakMemory");
        PeakMemory peakMemory = new PeakMemory(DataSize.ofBytes(peak.get("bytes").asLong()),
                seconds(peak.get("atSeconds")), PeakMemory.Method.valueOf(peak.get("method").asText()),
                seconds(peak.get("samplingIntervalSeconds")));
        JsonNode stall = u.get("pressureStall");
        // the figures a descriptor describes are read under its field; the rest are the usage's own details
        MetricFields f = new MetricFields(u);
        ResourceUsage usage = ResourceUsage.builder().container(name).image(image).probe(probe)
                .wallTime(f.duration(Metric.WALL_TIME)).before(before).after(after).peak(peakMemory)
                .peakMemoryHighWaterMark(bytes(u.get("peakMemoryHighWaterMarkBytes")))
                .memoryLimit(bytes(u.get("memoryLimitBytes"))).cpuTime(f.duration(Metric.CPU_TIME))
                .cpuUserTime(seconds(u.get("cpuUserSeconds"))).cpuSystemTime(seconds(u.get("cpuSystemSeconds")))
                .averageCpuPercent(f.percent(Metric.AVERAGE_CPU))
                .peakCpuPercent(Percentage.of(u.get("peakCpuPercent").asDouble()))
                .throttledPeriods(u.get("throttledPeriods").asLong()).throttledTime(f.duration(Metric.THROTTLED_TIME))
                .blockRead(f.size(Metric.BLOCK_READ)).blockWrite(f.size(Metric.BLOCK_WRITE))
                .networkReceived(f.size(Metric.NETWORK_RECEIVED)).networkSent(f.size(Metric.NETWORK_SENT))
                .peakPids(f.whole(Metric.PEAK_PIDS)).oomKills(u.get("oomKills").asLong())
                .memoryLimitHits(u.get("memoryLimitHits").asLong()).pressureStallCpu(stall(stall.get("cpu")))
                .pressureStallMemory(stall(stall.get("memory"))).pressureStallIo(stall(stall.get("io")))
                .timeline(timeline).phases(phases).sourcedFigures(f.sourced()).build();
        // the further sources' figures (GPU), each read back by its own kind
        for (SourceKind kind : SourceKinds.ALL) {
            usage = kind.readBack(usage, f);
        }
        return usage;
    }

    private static ResourceSnapshot snapshot(JsonNode s) {
        JsonNode stall = s.get("pressureStall");
        return ResourceSnapshot.builder().takenAt(Instant.parse(s.get("takenAt").asText()))
                .probe(ProbeKind.valueOf(s.get("probe").asText()))
                .memoryUsage(DataSize.ofBytes(s.get("memoryUsageBytes").asLong()))
                .memoryCharged(DataSize.ofBytes(s.get("memoryChargedBytes").asLong()))
                .memoryLimit(bytes(s.get("memoryLimitBytes"))).pageCache(DataSize.ofBytes(s.get("pageCacheBytes")
                        .asLong())).anonymousMemory(DataSize.ofBytes(s.get("anonymousMemoryBytes").asLong()))
                .swap(bytes(s.get("swapBytes"))).cpuTime(seconds(s.get("cpuSeconds")))
                .cpuUserTime(seconds(s.get("cpuUserSeconds"))).cpuSystemTime(seconds(s.get("cpuSystemSeconds")))
                .pids(s.get("pids").asLong()).blockRead(DataSize.ofBytes(s.get("blockReadBytes").asLong()))
                .blockWrite(DataSize.ofBytes(s.get("blockWriteBytes").asLong()))
                .networkReceived(DataSize.ofBytes(s.get("networkReceivedBytes").asLong()))
                .networkSent(DataSize.ofBytes(s.get("networkSentBytes").asLong()))
                .oomKills(s.get("oomKills").asLong()).memoryLimitHits(s.get("memoryLimitHits").asLong())
                .throttledPeriods(s.get("throttledPeriods").asLong()).throttledTime(seconds(s.get("throttledSeconds")))
                .cpuPressure(stall(stall.get("cpu"))).memoryPressure(stall(stall.get("memory")))
                .ioPressure(stall(stall.get("io"))).build();
    }

    private static Timeline timeline(JsonNode t, Duration interval) {
        List<TimelinePoint> points = new ArrayList<>();
        JsonNode offsets = t.get("offsetMs");
        for (int i = 0; i < offsets.size(); i++) {
            points.add(new TimelinePoint(Duration.ofMillis(offsets.get(i).asLong()), t.get("cpuPercent").get(i)
                    .asDouble(), DataSize.ofBytes(t.get("memoryBytes").get(i).asLong()), t.get("pids").get(i).asLong(),
                    // a counter the host did not measure is null (no array): 0, which is again not measured
                    seconds(t.get("cpuSeconds").get(i)), DataSize.ofBytes(t.get("blockReadBytes").path(i).asLong()),
                    DataSize.ofBytes(t.get("blockWriteBytes").path(i).asLong()),
                    DataSize.ofBytes(t.get("netRxBytes").get(i).asLong()),
                    DataSize.ofBytes(t.get("netTxBytes").get(i).asLong())));
        }
        return new Timeline(points, interval, t.get("samples").asLong(), t.get("readErrors").asLong());
    }

    private static Optional<PressureStall> stall(JsonNode s) {
        return s == null || s.isNull() ? Optional.empty()
                : Optional.of(new PressureStall(seconds(s.get("someSeconds")), seconds(s.get("fullSeconds"))));
    }

    // The writer prints nanoseconds / 1e9; rounding back recovers the nanoseconds for any test shorter than 104 days.
    private static Duration seconds(JsonNode value) {
        return Duration.ofNanos(Math.round(value.asDouble() * 1e9));
    }

    private static Optional<DataSize> bytes(JsonNode value) {
        return value == null || value.isNull() ? Optional.empty() : Optional.of(DataSize.ofBytes(value.asLong()));
    }

    /**
     * A budget result as {@link TestJsonWriter} wrote it. Its "attribute" names the phase in brackets
     * ({@code memoryHeadroom[train]}); a figure this version does not know fails the document, as any field would.
     */
    private static BudgetResult budget(JsonNode b) {
        String attribute = b.get("attribute").asText();
        int bracket = attribute.indexOf('[');
        boolean phased = bracket > 0 && attribute.endsWith("]");
        String figure = phased ? attribute.substring(0, bracket) : attribute;
        Optional<String> phase = phased ? Optional.of(attribute.substring(bracket + 1, attribute.length() - 1))
                : Optional.empty();
        Metric metric = Metric.byAttribute(figure).orElseThrow(() -> new IllegalArgumentException(
                "budget '" + attribute + "' is on a figure this version does not know"));
        double actualValue = b.get("actualValue").asDouble();
        boolean passed = b.get("passed").asBoolean();
        // "measurable" is false for a budget this host could not measure, which passed unless strict; the schema
        // does not require it, and a document without it says so in "actual" alone
        boolean measurable = b.path("measurable").isBoolean() ? b.get("measurable").asBoolean()
                : !BudgetResult.NOT_MEASURABLE_TEXT.equals(b.get("actual").asText());
        BudgetStatus status = !measurable ? BudgetStatus.NOT_MEASURABLE
                : passed ? BudgetStatus.OK : BudgetStatus.BREACHED;
        return new BudgetResult(metric, phase, status,
                new Limit(metric, b.get("limit").asText(), b.get("limitValue").asDouble()),
                Double.isNaN(actualValue) ? OptionalDouble.empty() : OptionalDouble.of(actualValue),
                b.get("marginPercent").isNull() ? OptionalDouble.empty()
                        : OptionalDouble.of(b.get("marginPercent").asDouble()),
                b.get("method").asText(),
                b.get("atSeconds").isNull() ? Optional.empty() : Optional.of(seconds(b.get("atSeconds"))),
                text(b.get("note")), status == BudgetStatus.NOT_MEASURABLE && !passed);
    }

    private static Optional<String> text(JsonNode value) {
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
    }
}
