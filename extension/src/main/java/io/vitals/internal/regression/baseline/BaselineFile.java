package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.files.JsonProblems;
import io.vitals.internal.files.MapperOnFirstUse;
import io.vitals.internal.files.SchemaName;
import io.vitals.internal.files.StoredFile;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.result.Figures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apiguardian.api.API;

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
@API(status = INTERNAL, since = "0.1")
public final class BaselineFile {

    private static final String FAMILY = "vitals-baseline";
    private static final int VERSION = 1;
    public static final String SCHEMA = FAMILY + "/" + VERSION;
    private static final SchemaName SCHEMA_NAME = new SchemaName(FAMILY, VERSION);

    private final Supplier<ObjectMapper> mapper;

    /** A format whose mapper is made when a baseline is first read or written: most runs configure none. */
    public BaselineFile() {
        this.mapper = new MapperOnFirstUse();
    }

    public BaselineFile(ObjectMapper mapper) {
        this.mapper = () -> mapper;
    }

    /**
     * Reads {@code file}. Anything it cannot account for is an error rather than skipped, because what it reads may
     * be written back: a figure read as 0 from a misspelt value would be stored as 0.
     *
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws BaselineException if it is empty, cut short, not JSON, not a {@value #SCHEMA} document (a newer
     *     version's included) or holds something else than numbers where figures belong; the message names the
     *     file, the line where there is one, and what is wrong
     * @throws IOException if it cannot be read at all
     */
    public Baseline read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (isBlank(bytes)) {
            throw new BaselineException(file, "the file is empty (" + bytes.length + " bytes), so it holds no "
                    + "figures; a baseline starts with {\"schema\" : \"" + SCHEMA + "\", \"tests\" : {...}}");
        }
        JsonNode root;
        try {
            // trailing tokens: two documents run together, or garbage after a complete one, is no baseline either
            root = mapper.get().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(bytes);
        } catch (JsonProcessingException e) {
            String message = JsonProblems.reason(e);
            String reason = "it does not parse as JSON: " + message
                    + (message.startsWith("Unexpected end-of-input") ? "; the file looks cut short" : "");
            JsonLocation at = e.getLocation();
            throw at == null || at.getLineNr() < 1 ? new BaselineException(file, reason)
                    : new BaselineException(file, at.getLineNr(), at.getColumnNr(), reason, e);
        }
        Structure structure = new Structure(file, bytes);
        if (!root.isObject()) {
            throw structure.error(JsonPointer.empty(), "the document must be a JSON object {\"schema\" : \"" + SCHEMA
                    + "\", \"tests\" : {...}}, but is " + kind(root));
        }
        checkSchema(structure, root.get("schema"));
        JsonPointer testsAt = JsonPointer.empty().appendProperty("tests");
        JsonNode testsNode = root.get("tests");
        if (testsNode == null || !testsNode.isObject()) {
            throw structure.error(testsNode == null ? JsonPointer.empty() : testsAt, "\"tests\" must be an object "
                    + "of test keys, but is " + (testsNode == null ? "missing" : kind(testsNode)));
        }
        Map<String, Map<String, Map<Metric, List<Double>>>> tests = new TreeMap<>();
        for (Map.Entry<String, JsonNode> test : testsNode.properties()) {
            JsonPointer testAt = testsAt.appendProperty(test.getKey());
            if (!test.getValue().isObject()) {
                throw structure.error(testAt, "test '" + test.getKey() + "' must be an object of containers, but is "
                        + kind(test.getValue()));
            }
            Map<String, Map<Metric, List<Double>>> containers = new TreeMap<>();
            for (Map.Entry<String, JsonNode> container : test.getValue().properties()) {
                JsonPointer containerAt = testAt.appendProperty(container.getKey());
                String where = "test '" + test.getKey() + "', container '" + container.getKey() + "'";
                if (!container.getValue().isObject()) {
                    throw structure.error(containerAt, where + " must be an object of metrics, but is "
                            + kind(container.getValue()));
                }
                Map<Metric, List<Double>> metrics = new EnumMap<>(Metric.class);
                for (Map.Entry<String, JsonNode> metric : container.getValue().properties()) {
                    // A metric a later version added, or one since removed or no longer compared: skipped rather
                    // than fatal.
                    Optional<Metric> key = Metric.byKey(metric.getKey()).filter(Metric::isCompared);
                    if (key.isEmpty()) {
                        continue;
                    }
                    List<Double> values = values(structure, containerAt.appendProperty(metric.getKey()),
                            where + ", metric '" + metric.getKey() + "'", metric.getValue());
                    if (!values.isEmpty()) {
                        metrics.put(key.get(), values);
                    }
                }
                containers.put(container.getKey(), metrics);
            }
            tests.put(test.getKey(), containers);
        }
        return new Baseline(tests);
    }

    private static List<Double> values(Structure structure, JsonPointer at, String where, JsonNode array)
            throws BaselineException {
        if (!array.isArray()) {
            throw structure.error(at, where + " must be an array of numbers, but is " + kind(array));
        }
        List<Double> values = new ArrayList<>();
        int index = 0;
        for (JsonNode value : array) {
            if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
                throw structure.error(at.appendIndex(index), where + " must hold numbers only, but holds " + value);
            }
            values.add(value.asDouble());
            index++;
        }
        return values;
    }

    private static void checkSchema(Structure structure, JsonNode schema) throws BaselineException {
        JsonPointer at = JsonPointer.empty().appendProperty("schema");
        if (schema == null || !schema.isTextual()) {
            throw structure.error(schema == null ? JsonPointer.empty() : at, "it has no \"schema\" string, so it "
                    + "is not a Vitals baseline; a baseline starts with {\"schema\" : \"" + SCHEMA + "\", ...}");
        }
        String text = schema.asText();
        if (text.equals(SCHEMA)) {
            return;
        }
        if (SCHEMA_NAME.isNewerIn(text)) {
            throw structure.error(at, "schema '" + text + "' was written by a newer version of Vitals; this version "
                    + "reads " + SCHEMA + " and would write the file back as " + SCHEMA + ", losing what the newer "
                    + "one added. Run the version of Vitals that wrote it");
        }
        throw structure.error(at, "schema '" + text + "' is not supported: this version of Vitals reads " + SCHEMA);
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String kind(JsonNode node) {
        return node.isObject() ? "an object" : node.isArray() ? "an array" : node.toString();
    }

    /** Finds the line of a place in the document, for errors found in the tree, which keeps no locations. */
    private final class Structure {

        private final Path file;
        private final byte[] bytes;

        Structure(Path file, byte[] bytes) {
            this.file = file;
            this.bytes = bytes;
        }

        BaselineException error(JsonPointer at, String rule) {
            return new BaselineException(file, line(at), rule);
        }

        private int line(JsonPointer at) {
            if (at.matches()) {
                return 1;
            }
            try (JsonParser parser = mapper.get().getFactory().createParser(bytes)) {
                for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                    // a property is found by its name; an array element (a figure) by itself
                    boolean place = token == JsonToken.FIELD_NAME || token.isScalarValue()
                            && parser.getParsingContext().inArray();
                    if (place && parser.getParsingContext().pathAsPointer().equals(at)) {
                        return parser.currentTokenLocation().getLineNr();
                    }
                }
            } catch (IOException e) {
                // it parsed once already; without a line the message still names file and place
            }
            return 1;
        }
    }

    public String toJson(Baseline baseline) throws IOException {
        ObjectNode root = mapper.get().createObjectNode();
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
        return mapper.get().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    }

    /**
     * Writes {@code baseline} to {@code file} atomically, keeping what the file held as
     * {@link StoredFile#previous}; does nothing when the content is the same.
     */
    public void write(Path file, Baseline baseline) throws IOException {
        StoredFile.replace(file, toJson(baseline).getBytes(StandardCharsets.UTF_8));
    }
}
