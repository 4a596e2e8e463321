package io.vitals.internal.report.json;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.result.Overlap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import org.apiguardian.api.API;

/**
 * A container's {@code "overlappedWith"}: the other tests whose windows on it were open during this test's, each
 * as {@code {"displayName": ..., "className": ...}}; an empty array when the figures are the test's alone. Written
 * into the per-test JSON, the run index and the console's JSON lines alike.
 */
@API(status = INTERNAL, since = "0.1")
public final class OverlapJson {

    static final String FIELD = "overlappedWith";

    private OverlapJson() {
    }

    public static void write(JsonGenerator json, Overlap overlap) throws IOException {
        JsonValues.objects(json, FIELD, overlap.tests(), (generator, test) -> {
            generator.writeStringField("displayName", test.displayName());
            generator.writeStringField("className", test.className());
        });
    }

    /** The overlap of a container object; none where the field is absent (a document written before it existed). */
    static Overlap read(JsonNode container) {
        JsonNode array = container.get(FIELD);
        if (array == null || array.isNull()) {
            return Overlap.none();
        }
        List<Overlap.OverlappedTest> tests = new ArrayList<>();
        for (JsonNode test : array) {
            tests.add(new Overlap.OverlappedTest(test.get("displayName").asText(), test.get("className").asText()));
        }
        return new Overlap(tests);
    }
}
