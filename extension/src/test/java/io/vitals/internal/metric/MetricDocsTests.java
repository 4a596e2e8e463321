package io.vitals.internal.metric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.DisplayName;

/**
 * Every figure is documented where users look for it: what it means and where it comes from (docs/metrics.md), its
 * JSON field (docs/report-format.md), and, where it takes a budget, its attribute (docs/budgets.md) and its
 * assertion (docs/assertions.md). A figure added to {@link Metric} without its docs fails here, naming the page.
 */
@DisplayName("Every figure in the docs")
class MetricDocsTests {

    // the tests run in extension/; the docs are at the repository's top level
    private static final Path DOCS = Path.of("..", "docs");

    private static String page(String name) throws IOException {
        return Files.readString(DOCS.resolve(name));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("docs/metrics.md names it and its source")
    void metricsPage(Metric metric) throws IOException {
        assertThat(page("metrics.md")).as("docs/metrics.md mentions `%s", metric.key()).contains("`" + metric.key());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("docs/report-format.md names its JSON field")
    void reportFormatPage(Metric metric) throws IOException {
        assertThat(page("report-format.md")).as("docs/report-format.md mentions %s", metric.jsonField())
                .contains(metric.jsonField());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Metric.class)
    @DisplayName("a budgetable figure: docs/budgets.md names its attribute, docs/assertions.md its assertion")
    void budgetPages(Metric metric) throws IOException {
        if (metric.budgetAttribute().isEmpty()) {
            return;
        }
        String name = Character.toUpperCase(metric.key().charAt(0)) + metric.key().substring(1);
        assertThat(page("budgets.md")).as("docs/budgets.md mentions %s", metric.attribute())
                .contains(metric.attribute());
        assertThat(page("assertions.md")).as("docs/assertions.md mentions has%sAt…", name)
                .contains("has" + name + (metric.isFloor() ? "AtLeast" : "AtMost"));
    }
}
