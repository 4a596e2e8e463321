package io.vitals.internal.report.json;

import static io.vitals.internal.report.json.JsonValues.object;
import static io.vitals.internal.report.json.JsonValues.seconds;
import static io.vitals.internal.report.json.JsonValues.string;

import io.vitals.internal.probe.HostShape;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Exactness;
import io.vitals.internal.result.MatrixCell;

import java.io.IOException;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A container's {@code hostShape} and {@code exactness} in the per-test JSON, written and read back here only: the
 * row and the cells of docs/metrics.md's table "Exactness by host shape". The cells are not read back as such:
 * {@link ContainerResult#exactness()} derives them again from the usage, so only the peak's column is kept.
 */
final class ExactnessJson {

    private ExactnessJson() {
    }

    static void write(JsonGenerator json, ContainerResult container) throws IOException {
        writeShape(json, container.hostShape());
        Exactness exactness = container.exactness();
        json.writeObjectFieldStart("exactness");
        for (Exactness.Column column : Exactness.Column.values()) {
            object(json, column.key(), exactness.cell(column), ExactnessJson::writeCell);
        }
        json.writeEndObject();
    }

    private static void writeCell(JsonGenerator json, MatrixCell cell) throws IOException {
        json.writeStringField("cell", cell.kind().jsonName());
        seconds(json, "samplingIntervalSeconds", cell.interval());
        string(json, "reason", cell.reason());
    }

    /** The shape's id and label, and the facts the row was chosen from. */
    static void writeShape(JsonGenerator json, HostShape shape) throws IOException {
        json.writeObjectFieldStart("hostShape");
        writeRow(json, shape);
        string(json, "cgroup", shape.cgroup());
        string(json, "kernel", shape.kernel());
        if (shape.root().isPresent()) {
            json.writeBooleanField("root", shape.root().get());
        } else {
            json.writeNullField("root");
        }
        string(json, "engine", shape.engine());
        json.writeBooleanField("peakResettable", shape.peakResettable());
        json.writeEndObject();
    }

    /** {@code id} and {@code label}: what the run index and summary name a shape by. */
    static void writeRow(JsonGenerator json, HostShape shape) throws IOException {
        json.writeStringField("id", shape.id());
        json.writeStringField("label", shape.label());
    }

    static HostShape readShape(JsonNode s) {
        return new HostShape(HostShape.Row.ofId(s.get("id").asText()), text(s.get("cgroup")), text(s.get("kernel")),
                s.get("root").isNull() ? Optional.empty() : Optional.of(s.get("root").asBoolean()),
                text(s.get("engine")), s.get("peakResettable").asBoolean());
    }

    /** Whether the peak was judged in the column of a container started by the test (the other one is null). */
    static boolean readMeasuredFromStart(JsonNode exactness) {
        return !exactness.get(Exactness.Column.PEAK_MEMORY_STARTED_BY_TEST.key()).isNull();
    }

    private static Optional<String> text(JsonNode node) {
        return node == null || node.isNull() ? Optional.empty() : Optional.of(node.asText());
    }
}
