package io.vitals.internal.report.baseline;

import io.vitals.internal.report.AtomicFiles;
import io.vitals.internal.report.Figures;
import io.vitals.internal.metric.Metric;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads and writes a {@value #SCHEMA} file. The layout is meant for review in a pull request: keys sorted, one
 * object per test, one line per metric with its values, so a changed figure shows as a one-line diff.
 *
 * <pre>{@code
 * {
 *   "schema" : "vitals-baseline/1",
 *   "tests" : {
 *     "com.example.TrainTests#train [1] 64" : {
 *       "tf" : {
 *         "averageCpu" : [ 152.5, 149.0 ],
 *         "peakMemory" : [ 851443712, 850000000 ],
 *         ...
 * }</pre>
 */
public final class BaselineFile {

    public static final String SCHEMA = "vitals-baseline/1";

    private final ObjectMapper mapper;

    public BaselineFile(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Reads {@code file}.
     *
     * @throws IOException if it cannot be read or is not a {@value #SCHEMA} document; the message names the file
     */
    public Baseline read(Path file) throws IOException {
        JsonNode root;
        try {
            root = mapper.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IOException("Failed to read baseline " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            throw new IOException("Baseline " + file + " is not a " + SCHEMA + " document (its \"schema\" is "
                    + (root == null ? "missing" : root.path("schema")) + ")");
        }
        Map<String, Map<String, Map<Metric, List<Double>>>> tests = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> t = root.path("tests").properties().iterator(); t.hasNext();) {
            Map.Entry<String, JsonNode> test = t.next();
            Map<String, Map<Metric, List<Double>>> containers = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> c = test.getValue().properties().iterator(); c.hasNext();) {
                Map.Entry<String, JsonNode> container = c.next();
                Map<Metric, List<Double>> metrics = new EnumMap<>(Metric.class);
                for (Iterator<Map.Entry<String, JsonNode>> m = container.getValue().properties().iterator(); m.hasNext();) {
                    Map.Entry<String, JsonNode> metric = m.next();
                    // A metric a later version added, or one since removed or no longer compared: skipped rather
                    // than fatal.
                    Metric.byKey(metric.getKey()).filter(Metric::isCompared).ifPresent(key -> {
                        List<Double> values = new ArrayList<>();
                        metric.getValue().forEach(v -> values.add(v.asDouble()));
                        if (!values.isEmpty()) {
                            metrics.put(key, values);
                        }
                    });
                }
                containers.put(container.getKey(), metrics);
            }
            tests.put(test.getKey(), containers);
        }
        return new Baseline(tests);
    }

    public String toJson(Baseline baseline) throws IOException {
        ObjectNode root = mapper.createObjectNode();
        root.put("schema", SCHEMA);
        ObjectNode tests = root.putObject("tests");
        baseline.tests().forEach((test, containers) -> {
            ObjectNode testNode = tests.putObject(test);
            containers.forEach((container, metrics) -> {
                ObjectNode containerNode = testNode.putObject(container);
                Map<String, List<Double>> sorted = new TreeMap<>();
                metrics.forEach((metric, values) -> sorted.put(metric.key(), values));
                sorted.forEach((metric, values) -> {
                    ArrayNode array = containerNode.putArray(metric);
                    values.forEach(v -> {
                        if (Figures.isWhole(v)) {
                            array.add(v.longValue());
                        } else {
                            array.add(v);
                        }
                    });
                });
            });
        });
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    public void write(Path file, Baseline baseline) throws IOException {
        AtomicFiles.write(file, toJson(baseline));
    }
}
