package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.files.JsonProblems;
import io.vitals.internal.files.MapperOnFirstUse;
import io.vitals.internal.files.SchemaName;
import io.vitals.internal.files.StoredFile;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.result.Figures;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apiguardian.api.API;

/**
 * Reads and writes a history file ({@value #SCHEMA}), JSON Lines: a header line, one line per testbed, one line per
 * build, then one line per test, container, phase and metric, each sorted, each key with its runs oldest first.
 *
 * <pre>{@code
 * {"schema":"vitals-history/2","keep":20}
 * {"testbed":"tb-3f9a0c1d","fields":{"cgroup":"v1","cpus":"2","engine":"docker 20.10.24","kernel":"6.1.0",...}}
 * {"build":"9012-1","at":"2026-03-01T10:15:30Z","commit":"3f9a0c1d...","branch":"main"}   (with a commit or branch)
 * {"test":"com.example.TrainTests#train","container":"tf","phase":"","metric":"cpuTime","runs":[{"id":"9012-1","at":"2026-03-01T10:15:30Z","testbed":"tb-3f9a0c1d","values":[12.1,12.4]}]}
 * }</pre>
 *
 * <p>Files of schema {@code vitals-history/1} (no testbeds, no builds) are read as they are, each run on no recorded
 * testbed ({@link Testbed#UNRECORDED}), and written back as {@value #SCHEMA} with every value kept.
 *
 * <p>Why this shape: one line per key means a run changes only the lines of the tests it ran, and git merges two
 * branches that ran different tests without conflict; sorted keys keep the order stable; JSON per line escapes any
 * test name and still parses with any JSON library (or {@code jq -c}); and a broken line can be named by its number.
 */
@API(status = INTERNAL, since = "0.1")
public final class HistoryFile {

    private static final String FAMILY = "vitals-history";
    private static final int VERSION = 2;
    public static final String SCHEMA = FAMILY + "/" + VERSION;
    /** The schema before testbeds and builds were recorded; read and migrated. */
    public static final String SCHEMA_1 = FAMILY + "/1";
    private static final SchemaName SCHEMA_NAME = new SchemaName(FAMILY, VERSION);

    // only reading needs databind's trees; writing streams through jackson-core, so a run that reads no history
    // (none configured) never loads databind for the history copy it writes into its report directory
    private final Supplier<ObjectMapper> mapper;
    private final JsonFactory factory = new JsonFactory();

    /** A file whose reading makes its own mapper, when a history is first read. */
    public HistoryFile() {
        this.mapper = new MapperOnFirstUse();
    }

    public HistoryFile(ObjectMapper mapper) {
        this.mapper = () -> mapper;
    }

    /**
     * A history as read, with the line each key came from, so a later conflict can name it.
     *
     * @param file where it was read from
     * @param history the history
     * @param lines the line number of each key
     */
    public record Loaded(Path file, History history, Map<HistoryKey, Integer> lines) {

        public Loaded {
            lines = Map.copyOf(lines);
        }

        /** "history.jsonl line 7" for a key it holds, else the file alone. */
        public String where(HistoryKey key) {
            Integer line = lines.get(key);
            return line == null ? file.toString() : file + " line " + line;
        }
    }

    /**
     * Reads {@code file}.
     *
     * @throws NoSuchFileException if it does not exist
     * @throws HistoryException naming the file, the line and the rule, if it is not a readable {@value #SCHEMA}
     *     file
     */
    public Loaded read(Path file) throws IOException {
        Map<HistoryKey, List<HistoryRun>> runs = new TreeMap<>();
        Map<HistoryKey, Integer> lines = new HashMap<>();
        Map<String, Testbed> testbeds = new TreeMap<>();
        Map<String, Build> builds = new TreeMap<>();
        int keep = 0;
        try (BufferedReader reader = new BufferedReader(new StringReader(utf8(file, Files.readAllBytes(file))))) {
            String text;
            int number = 0;
            while ((text = reader.readLine()) != null) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                JsonNode line = parse(file, number, text);
                if (keep == 0) {
                    keep = header(file, number, line);
                    continue;
                }
                if (line.has("testbed") && !line.has("test")) {
                    Testbed testbed = testbed(file, number, line);
                    testbeds.put(testbed.id(), testbed);
                    continue;
                }
                if (line.has("build") && !line.has("test")) {
                    Build build = build(file, number, line);
                    builds.put(build.id(), build);
                    continue;
                }
                HistoryKey key = key(file, number, line);
                Integer earlier = lines.putIfAbsent(key, number);
                if (earlier != null) {
                    throw new HistoryException(file, number, "the key " + key + " is already on line " + earlier
                            + "; each test, container, phase and metric has one line");
                }
                runs.put(key, runs(file, number, line.get("runs")));
            }
            if (keep == 0) {
                throw new HistoryException(file, 1, "the file is empty; it must start with the header line "
                        + "{\"schema\":\"" + SCHEMA + "\",\"keep\":20}");
            }
        }
        return new Loaded(file, new History(keep, runs, testbeds, builds), lines);
    }

    /**
     * The file's text. Decoded strictly, and as a whole, so that a byte that is not UTF-8 is named by its line
     * (a reader decoding ahead in blocks would fail on an earlier line, with only "Input length = 1" to say).
     */
    private static String utf8(Path file, byte[] bytes) throws HistoryException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate((int) (bytes.length * (double) decoder.maxCharsPerByte()) + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            throw new HistoryException(file, line, String.format(Locale.ROOT, "the file must be UTF-8, but byte "
                    + "%d of the line (0x%02X) is not", at - lineStart + 1, bytes[at] & 0xFF));
        }
        return out.flip().toString();
    }

    private JsonNode parse(Path file, int number, String text) throws HistoryException {
        try {
            JsonNode node = mapper.get().readTree(text);
            if (node == null || !node.isObject()) {
                throw new HistoryException(file, number, "each line must be one JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new HistoryException(file, number, "each line must be one JSON object, but it does not parse: "
                    + JsonProblems.reason(e), e);
        }
    }

    private static int header(Path file, int number, JsonNode line) throws HistoryException {
        JsonNode schema = line.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw new HistoryException(file, number, "the first line must be the header {\"schema\":\"" + SCHEMA
                    + "\",\"keep\":N}; this is not a Vitals history file");
        }
        if (!schema.asText().equals(SCHEMA) && !schema.asText().equals(SCHEMA_1)) {
            String text = schema.asText();
            String hint = !SCHEMA_NAME.isFamilyOf(text) ? ""
                    : SCHEMA_NAME.isNewerIn(text) ? "; it was written by a newer version of Vitals, and this one "
                            + "would write it back as " + SCHEMA + ". Use that version"
                    : "; it was written by another version of Vitals. Use that version, or start a new history";
            throw new HistoryException(file, number, "schema '" + schema.asText() + "' is not supported: this "
                    + "version of Vitals reads " + SCHEMA_1 + " and " + SCHEMA + hint + ". The file is left as it is");
        }
        JsonNode keep = line.get("keep");
        if (keep == null || !keep.canConvertToInt() || !keep.isIntegralNumber() || keep.asInt() < 1) {
            throw new HistoryException(file, number, "\"keep\" must be a whole number of at least 1, but is "
                    + keep);
        }
        return keep.asInt();
    }

    private static HistoryKey key(Path file, int number, JsonNode line) throws HistoryException {
        String test = text(file, number, line, "test", false);
        String container = text(file, number, line, "container", false);
        String phase = text(file, number, line, "phase", true);
        String metric = text(file, number, line, "metric", false);
        return new HistoryKey(test, container, phase, metric);
    }

    private static String text(Path file, int number, JsonNode line, String field, boolean mayBeEmpty)
            throws HistoryException {
        JsonNode value = line.get(field);
        if (value == null || !value.isTextual() || !mayBeEmpty && value.asText().isEmpty()) {
            throw new HistoryException(file, number, "\"" + field + "\" must be " + (mayBeEmpty ? "a string (\"\" "
                    + "for the whole test)" : "a non-empty string") + ", but is " + value);
        }
        return value.asText();
    }

    private static List<HistoryRun> runs(Path file, int number, JsonNode runs) throws HistoryException {
        if (runs == null || !runs.isArray() || runs.isEmpty()) {
            throw new HistoryException(file, number, "\"runs\" must be a non-empty array of {\"id\",\"at\","
                    + "\"values\"} objects, but is " + runs);
        }
        List<HistoryRun> list = new ArrayList<>();
        for (JsonNode run : runs) {
            JsonNode id = run.get("id");
            JsonNode at = run.get("at");
            JsonNode values = run.get("values");
            JsonNode testbed = run.get("testbed");
            if (testbed != null && (!testbed.isTextual() || testbed.asText().isBlank())) {
                throw new HistoryException(file, number, "run '" + (id == null ? "?" : id.asText()) + "': "
                        + "\"testbed\" must be a non-empty string, but is " + testbed);
            }
            if (id == null || !id.isTextual() || id.asText().isEmpty()) {
                throw new HistoryException(file, number, "each run needs an \"id\" string, but one has " + id);
            }
            Instant instant;
            try {
                instant = Instant.parse(at == null ? "" : at.asText());
            } catch (DateTimeParseException e) {
                throw new HistoryException(file, number, "run '" + id.asText() + "': \"at\" must be an ISO-8601 "
                        + "instant such as 2026-03-01T10:15:30Z, but is " + at, e);
            }
            if (values == null || !values.isArray() || values.isEmpty()) {
                throw new HistoryException(file, number, "run '" + id.asText() + "': \"values\" must be a non-empty "
                        + "array of numbers, but is " + values);
            }
            List<Double> numbers = new ArrayList<>();
            for (JsonNode value : values) {
                if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
                    throw new HistoryException(file, number, "run '" + id.asText() + "': \"values\" must hold "
                            + "numbers only, but holds " + value);
                }
                numbers.add(value.asDouble());
            }
            if (list.stream().anyMatch(r -> r.id().equals(id.asText()))) {
                throw new HistoryException(file, number, "run '" + id.asText() + "' appears twice in one line");
            }
            list.add(new HistoryRun(id.asText(), instant, testbed == null ? Testbed.UNRECORDED : testbed.asText(),
                    numbers));
        }
        return list;
    }

    private static Testbed testbed(Path file, int number, JsonNode line) throws HistoryException {
        String id = text(file, number, line, "testbed", false);
        JsonNode fields = line.get("fields");
        if (fields == null || !fields.isObject()) {
            throw new HistoryException(file, number, "testbed '" + id + "': \"fields\" must be an object of "
                    + "strings, but is " + fields);
        }
        Map<String, String> facts = new TreeMap<>();
        for (Map.Entry<String, JsonNode> field : fields.properties()) {
            if (!field.getValue().isTextual()) {
                throw new HistoryException(file, number, "testbed '" + id + "': field \"" + field.getKey()
                        + "\" must be a string, but is " + field.getValue());
            }
            facts.put(field.getKey(), field.getValue().asText());
        }
        JsonNode identity = line.get("identity");
        List<String> keys = new ArrayList<>();
        if (identity != null && identity.isArray()) {
            identity.forEach(key -> keys.add(key.asText()));
        } else {
            keys.addAll(facts.keySet());
        }
        return new Testbed(id, new TreeMap<>(facts), keys);
    }

    private static Build build(Path file, int number, JsonNode line) throws HistoryException {
        String id = text(file, number, line, "build", false);
        JsonNode at = line.get("at");
        Instant instant;
        try {
            instant = Instant.parse(at == null ? "" : at.asText());
        } catch (DateTimeParseException e) {
            throw new HistoryException(file, number, "build '" + id + "': \"at\" must be an ISO-8601 instant such "
                    + "as 2026-03-01T10:15:30Z, but is " + at, e);
        }
        return new Build(id, instant, optionalText(line.get("commit")), optionalText(line.get("branch")));
    }

    private static java.util.Optional<String> optionalText(JsonNode node) {
        return node == null || !node.isTextual() ? java.util.Optional.empty() : java.util.Optional.of(node.asText());
    }

    /**
     * The file's content: header, then one line per key in key order. Streamed through one generator (a tree per
     * line, and the same instant formatted again for every key of a run, were a sixth of the CPU of closing a
     * 10,000-test run); the text is the same as the trees gave.
     */
    public String toText(History history) {
        StringWriter out = new StringWriter(64 * (history.runs().size() + 1));
        Map<Instant, String> instants = new HashMap<>();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.setRootValueSeparator(null); // each line ends in a line break, written here
            json.writeStartObject();
            json.writeStringField("schema", SCHEMA);
            json.writeNumberField("keep", history.keep());
            json.writeEndObject();
            json.writeRaw('\n');
            for (Testbed testbed : history.testbeds().values()) {
                json.writeStartObject();
                json.writeStringField("testbed", testbed.id());
                json.writeObjectFieldStart("fields");
                for (Map.Entry<String, String> field : testbed.fields().entrySet()) {
                    json.writeStringField(field.getKey(), field.getValue());
                }
                json.writeEndObject();
                json.writeArrayFieldStart("identity");
                for (String key : testbed.identity()) {
                    json.writeString(key);
                }
                json.writeEndArray();
                json.writeEndObject();
                json.writeRaw('\n');
            }
            List<Build> builds = new ArrayList<>(history.builds().values());
            builds.sort(java.util.Comparator.comparing(Build::at).thenComparing(Build::id));
            for (Build build : builds) {
                if (build.commit().isEmpty() && build.branch().isEmpty()) {
                    continue; // its id and start are on its runs already
                }
                json.writeStartObject();
                json.writeStringField("build", build.id());
                json.writeStringField("at", instants.computeIfAbsent(build.at(), Instant::toString));
                if (build.commit().isPresent()) {
                    json.writeStringField("commit", build.commit().get());
                }
                if (build.branch().isPresent()) {
                    json.writeStringField("branch", build.branch().get());
                }
                json.writeEndObject();
                json.writeRaw('\n');
            }
            for (Map.Entry<HistoryKey, List<HistoryRun>> entry : history.runs().entrySet()) {
                HistoryKey key = entry.getKey();
                json.writeStartObject();
                json.writeStringField("test", key.test());
                json.writeStringField("container", key.container());
                json.writeStringField("phase", key.phase());
                json.writeStringField("metric", key.metric());
                json.writeArrayFieldStart("runs");
                for (HistoryRun run : entry.getValue()) {
                    json.writeStartObject();
                    json.writeStringField("id", run.id());
                    json.writeStringField("at", instants.computeIfAbsent(run.at(), Instant::toString));
                    if (!Testbed.UNRECORDED.equals(run.testbed())) {
                        json.writeStringField("testbed", run.testbed());
                    }
                    json.writeArrayFieldStart("values");
                    for (double value : run.values()) {
                        if (Figures.isWhole(value)) {
                            json.writeNumber((long) value);
                        } else {
                            json.writeNumber(value);
                        }
                    }
                    json.writeEndArray();
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeEndObject();
                json.writeRaw('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /**
     * Writes {@code history} to {@code file} atomically, keeping what the file held as
     * {@link StoredFile#previous}.
     */
    public void write(Path file, History history) throws IOException {
        StoredFile.replace(file, toText(history).getBytes(StandardCharsets.UTF_8));
    }
}
