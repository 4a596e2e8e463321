package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apiguardian.api.API;

/**
 * Reads a run index ({@value RunIndexWriter#SCHEMA}) back into its tests, each with the bytes of its own JSON file
 * and the result read from them: what the merge command reads of each shard, and what the JVMs of one run read of
 * each other's part of it. Every error names the file, the test's position in it and the rule.
 */
@API(status = INTERNAL, since = "0.1")
public final class IndexReader {

    private final ObjectMapper mapper;
    private final TestJsonReader tests;

    public IndexReader(ObjectMapper mapper) {
        this.mapper = mapper;
        this.tests = new TestJsonReader(mapper);
    }

    /**
     * One test of an index.
     *
     * @param where "FILE test N", for messages
     * @param json its JSON file's bytes, as written
     * @param entry the test with its path and the baseline findings the index recorded
     */
    public record Test(String where, byte[] json, RunReport.Entry entry) {

        public TestResult result() {
            return entry.result();
        }

        public String jsonPath() {
            return entry.jsonPath();
        }
    }

    /** The index as parsed, with its tests. */
    public record Index(JsonNode root, List<Test> tests) {

        public Index {
            tests = List.copyOf(tests);
        }
    }

    /**
     * Reads {@code indexFile}, whose test paths are relative to {@code reportDir}.
     *
     * @throws IOException naming file, test and rule, if the index or one of its test files is missing or unreadable
     */
    public Index read(Path indexFile, Path reportDir) throws IOException {
        return read(indexFile, reportDir, Optional.empty());
    }

    /**
     * As {@link #read}, but a test whose JSON file is missing (its JVM was killed before writing it) is left out
     * and named on {@code warnings}, instead of failing the whole index.
     */
    public Index readAvailable(Path indexFile, Path reportDir, Consumer<String> warnings) throws IOException {
        return read(indexFile, reportDir, Optional.of(warnings));
    }

    private Index read(Path indexFile, Path reportDir, Optional<Consumer<String>> missing) throws IOException {
        JsonNode index = readRoot(indexFile);
        List<Test> read = new ArrayList<>();
        int position = 0;
        for (JsonNode entry : index.get("tests")) {
            position++;
            String where = indexFile + " test " + position;
            String jsonPath = entry.path("json").asText();
            Path file = reportDir.resolve(jsonPath).normalize();
            if (jsonPath.isEmpty() || !file.startsWith(reportDir.normalize())) {
                throw new IOException(where + ": \"json\" must be a path inside the report directory, but is '"
                        + jsonPath + "'");
            }
            if (!Files.isRegularFile(file) && missing.isPresent()) {
                missing.get().accept(where + ": its JSON file " + file + " is missing; the test is left out of the "
                        + "run's reports");
                continue;
            }
            if (!Files.isRegularFile(file)) {
                throw new IOException(where + ": its JSON file " + file + " is missing; copy the whole report "
                        + "directory of each shard");
            }
            byte[] json = Files.readAllBytes(file);
            TestResult result = tests.read(json, file.toString());
            checkIdentity(where, entry, result, file);
            JsonNode expectedBy = entry.path("expectedToFailBy");
            read.add(new Test(where, json, new RunReport.Entry(result, jsonPath,
                    IndexFindings.read(entry.path("baseline")),
                    expectedBy.isTextual() ? Optional.of(expectedBy.asText()) : Optional.empty())));
        }
        return new Index(index, read);
    }

    private JsonNode readRoot(Path indexFile) throws IOException {
        if (!Files.isRegularFile(indexFile)) {
            throw new IOException(indexFile + ": missing; each input must be a Vitals report directory "
                    + "(target/vitals)");
        }
        JsonNode index;
        try {
            index = mapper.readTree(Files.readAllBytes(indexFile));
        } catch (IOException e) {
            // Jackson's own location line names no file ("Source: REDACTED"): the file is named here instead
            throw new IOException(indexFile + ": does not parse as JSON: " + (e instanceof JsonProcessingException json
                    ? json.getOriginalMessage() : e.getMessage()), e);
        }
        if (index == null || !RunIndexWriter.SCHEMA.equals(index.path("schema").asText())) {
            throw new IOException(indexFile + ": schema " + (index == null ? "missing" : index.path("schema"))
                    + " is not supported; this version of Vitals reads " + RunIndexWriter.SCHEMA);
        }
        if (!index.path("tests").isArray()) {
            throw new IOException(indexFile + ": \"tests\" must be an array");
        }
        return index;
    }

    private static void checkIdentity(String where, JsonNode entry, TestResult result, Path file)
            throws IOException {
        if (!entry.path("uniqueId").asText().equals(result.uniqueId())
                || !entry.path("className").asText().equals(result.className())
                || !entry.path("displayName").asText().equals(result.displayName())) {
            throw new IOException(where + ": the index names test " + entry.path("uniqueId").asText() + " ("
                    + entry.path("className").asText() + ", '" + entry.path("displayName").asText() + "') but its "
                    + "file " + file + " holds " + result.uniqueId() + " (" + describe(result) + ")");
        }
    }

    static String describe(TestResult result) {
        return result.className() + " '" + result.displayName() + "'";
    }
}
