package io.vitals.internal.result;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.probe.HostShape;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The reports name a row and the columns of docs/metrics.md's table "Exactness by host shape" by label and key; a
 * reader must find them there, so the table's rows begin with each label and id, and its headings are the columns'.
 */
@DisplayName("docs/metrics.md, Exactness by host shape")
class ExactnessTableDocsTests {

    private static final Path METRICS = Path.of("..", "docs", "metrics.md");

    private static List<String> table() throws IOException {
        String doc = Files.readString(METRICS, StandardCharsets.UTF_8);
        String section = doc.substring(doc.indexOf("## Exactness by host shape"));
        section = section.substring(0, section.indexOf("\n## ", 3));
        return section.lines().filter(line -> line.startsWith("|")).toList();
    }

    private static List<String> cells(String row) {
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::strip).toList();
    }

    @Test
    @DisplayName("the headings are the columns of the JSON's exactness, in order")
    void headings() throws IOException {
        List<String> headings = cells(table().get(0));
        assertThat(headings.subList(1, headings.size())).containsExactlyElementsOf(
                Arrays.stream(Exactness.Column.values()).map(Exactness.Column::heading).toList());
    }

    @Test
    @DisplayName("every row the reports name begins with its label and id, once each, in order")
    void rows() throws IOException {
        List<String> firstCells = table().stream().skip(2).map(row -> cells(row).get(0)).toList();
        assertThat(firstCells).hasSize(HostShape.Row.values().length);
        for (int i = 0; i < firstCells.size(); i++) {
            HostShape.Row row = HostShape.Row.values()[i];
            assertThat(firstCells.get(i)).startsWith(row.label() + " (`" + row.id() + "`)");
        }
    }
}
