package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.bytes;
import static io.vitals.internal.report.json.JsonValues.seconds;
import static io.vitals.internal.report.json.JsonValues.string;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerLimits;
import io.vitals.internal.result.ContainerResult;

import java.io.IOException;
import java.util.Optional;

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
        seconds(json, "atSeconds", b.at());
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
        seconds(json, "atSeconds", f.at());
        seconds(json, "lastSeenSeconds", f.lastSeen());
        json.writeBooleanField("partialWindow", f.partialWindow());
        json.writeStringField("description", f.description());
        json.writeEndObject();
    }
}
