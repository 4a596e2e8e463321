package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.number;
import static io.vitals.internal.report.json.JsonValues.object;
import static io.vitals.internal.report.json.JsonValues.objects;
import static io.vitals.internal.report.json.JsonValues.seconds;
import static io.vitals.internal.report.json.JsonValues.string;
import static io.vitals.internal.report.json.JsonValues.strings;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;

/**
 * One entry of a test's {@code containers}: what the container was (name, image, limits, probe), what it used
 * (snapshots, usage, timeline, phases), how it fared against its budgets, and what went wrong with it.
 */
final class ContainerJson {

    private ContainerJson() {
    }

    static void write(JsonGenerator json, ContainerResult container) throws IOException {
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
        UnmeasuredCounters absent = UnmeasuredCounters.of(usage);
        json.writeFieldName("before");
        SnapshotJson.write(json, usage.before(), absent);
        json.writeFieldName("after");
        SnapshotJson.write(json, usage.after(), absent);
        json.writeFieldName("usage");
        UsageJson.writeTest(json, usage);
        TimelineJson.write(json, usage.timeline(), absent);
        UsageJson.writePhases(json, usage);
        objects(json, "budgets", container.budgets(), ContainerJson::writeBudget);
        object(json, "fault", container.fault(), ContainerJson::writeFault);
        strings(json, "logTail", container.logTail());
        OverlapJson.write(json, container.overlap());
        json.writeEndObject();
    }

    private static void writeLimits(JsonGenerator json, ContainerLimits limits) throws IOException {
        json.writeObjectFieldStart("limits");
        bytes(json, "memoryBytes", limits.memory());
        number(json, "cpus", limits.cpus());
        string(json, "cpuset", limits.cpuset());
        string(json, "gpus", limits.gpus());
        number(json, "pids", limits.pids());
        json.writeEndObject();
    }

    private static void writeBudget(JsonGenerator json, BudgetResult b) throws IOException {
        json.writeStringField("attribute", b.name());
        json.writeStringField("limit", b.limit().text());
        json.writeNumberField("limitValue", b.limit().value());
        json.writeStringField("actual", b.actualText());
        json.writeNumberField("actualValue", b.actual().orElse(Double.NaN));
        json.writeBooleanField("passed", b.passed());
        json.writeBooleanField("measurable", b.status() != BudgetStatus.NOT_MEASURABLE);
        number(json, "marginPercent", b.marginPercent());
        json.writeStringField("method", b.method());
        seconds(json, "atSeconds", b.at());
        string(json, "note", b.note());
    }

    private static void writeFault(JsonGenerator json, ContainerFault f) throws IOException {
        json.writeStringField("kind", f.kind().name());
        number(json, "exitCode", f.exitCode());
        seconds(json, "atSeconds", f.at());
        seconds(json, "lastSeenSeconds", f.lastSeen());
        json.writeBooleanField("partialWindow", f.partialWindow());
        json.writeStringField("description", f.description());
    }
}
