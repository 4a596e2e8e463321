package io.vitals.internal.report.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.ReportFixtures;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The schema stays hand-written (its descriptions are for people), but it cannot silently miss a figure: every
 * descriptor's JSON field, and the field that says why it is null where the host cannot measure it, must be a
 * property of the usage object.
 */
@DisplayName("vitals-test-1.schema.json covers every Metric")
class MetricSchemaCoverageTests {

    private static JsonNode usageProperties;

    @BeforeAll
    static void loadSchema() throws IOException {
        try (InputStream in = MetricSchemaCoverageTests.class
                .getResourceAsStream("/io/vitals/report/vitals-test-1.schema.json")) {
            assertThat(in).as("vitals-test-1.schema.json on the classpath").isNotNull();
            usageProperties = new ObjectMapper().readTree(in).path("$defs").path("usage").path("properties");
        }
        assertThat(usageProperties.isObject()).as("$defs.usage.properties").isTrue();
    }

    @ParameterizedTest
    @EnumSource(Metric.class)
    @DisplayName("the usage object has the figure's field")
    void hasField(Metric metric) {
        assertThat(usageProperties.has(metric.jsonField()))
                .as("vitals-test-1.schema.json $defs.usage.properties has \"%s\" (%s)", metric.jsonField(), metric)
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(Metric.class)
    @DisplayName("the usage object has the field that says why the figure is missing, where the host can be why")
    void hasUnavailableField(Metric metric) {
        // a phase's usage in the fixtures comes from the constructor of releases before further sources, so every
        // figure a further source gives is missing from it for a reason of the host ("not measured")
        ResourceUsage withoutSources = ReportFixtures.usage("db", 1, 20).phases().get(0).usage();
        String field = MetricJson.unavailableField(metric.jsonField());
        if (metric.unmeasurableReason(withoutSources).isPresent()) {
            assertThat(usageProperties.has(field))
                    .as("vitals-test-1.schema.json $defs.usage.properties has \"%s\" (%s)", field, metric).isTrue();
        }
    }
}
