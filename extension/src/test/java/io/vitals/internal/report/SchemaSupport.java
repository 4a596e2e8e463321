package io.vitals.internal.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Loads the published schemas from the classpath, as a consumer of the jar would. */
public final class SchemaSupport {

    private SchemaSupport() {
    }

    public static MiniSchemaValidator testSchema() {
        try (InputStream in = SchemaSupport.class.getResourceAsStream("/io/vitals/report/vitals-test-1.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("vitals-test-1.schema.json is not on the classpath");
            }
            return new MiniSchemaValidator(new ObjectMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
