package io.vitals.internal.report.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every console table shown in the docs has the columns the table prints today, in its order. A table shows only
 * the figures its containers have ({@link ShownFigures}), so a page's header may leave columns out, but never have
 * one the table no longer prints, nor lack OUTCOME, which every table has; a page that still shows an older table
 * fails here, not in a reader's terminal.
 */
@DisplayName("Console tables in the docs")
class ConsoleTableDocsTests {

    private static final Path ROOT = Path.of("..");
    // columns are separated by at least two spaces (tabwriter padding 3, minimum width 10); a header has single
    // spaces only inside a name ("MEM USAGE / LIMIT", "PEAK MEM")
    private static final Pattern COLUMN_GAP = Pattern.compile(" {2,}");

    @Test
    @DisplayName("every header in README.md and docs/*.md is an in-order selection of today's columns, with OUTCOME")
    void headersMatchTheTable() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            for (String line : Files.readAllLines(page)) {
                if (!line.startsWith("TEST ")) {
                    continue;
                }
                List<String> columns = Arrays.asList(COLUMN_GAP.split(line.strip()));
                found.add(ROOT.relativize(page) + ": " + columns);
                assertThat(isInOrderSubsetOf(columns, ConsoleTable.HEADERS))
                        .as("%s shows a console header the table no longer prints: %s; today's columns: %s",
                                ROOT.relativize(page), columns, ConsoleTable.HEADERS)
                        .isTrue();
                assertThat(columns).as("%s: every table has an OUTCOME column", ROOT.relativize(page))
                        .contains("OUTCOME", "BUDGETS");
                assertThat(columns.subList(0, 9)).as("%s: docker's columns come first", ROOT.relativize(page))
                        .isEqualTo(ConsoleTable.HEADERS.subList(0, 9));
            }
        }
        assertThat(found).as("the pages that show a console table").hasSizeGreaterThanOrEqualTo(3);
    }

    private static boolean isInOrderSubsetOf(List<String> columns, List<String> all) {
        int next = 0;
        for (String column : columns) {
            next = all.subList(next, all.size()).indexOf(column) + next;
            if (next < 0 || !all.get(next).equals(column)) {
                return false;
            }
            next++;
        }
        return true;
    }

    private static List<Path> pages() throws IOException {
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            return Stream.concat(Stream.of(ROOT.resolve("README.md")),
                    docs.filter(p -> p.toString().endsWith(".md")).sorted()).toList();
        }
    }
}
