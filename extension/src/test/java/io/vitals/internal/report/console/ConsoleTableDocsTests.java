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
 * Every console table shown in the docs has the columns one of the tables prints today, in its order: the default
 * {@link VerdictTable} (TEST, OUTCOME, BUDGETS first) or the full {@link ConsoleTable} ({@code vitals.console=full},
 * docker's columns first). A table shows only the figures its containers have or budget, so a page's header may
 * leave columns out, but never have one the table no longer prints; a page that still shows an older table fails
 * here, not in a reader's terminal.
 */
@DisplayName("Console tables in the docs")
class ConsoleTableDocsTests {

    private static final Path ROOT = Path.of("..");
    // columns are separated by at least two spaces (tabwriter padding 3, minimum width 10); a header has single
    // spaces only inside a name ("MEM USAGE / LIMIT", "PEAK MEM")
    private static final Pattern COLUMN_GAP = Pattern.compile(" {2,}");

    @Test
    @DisplayName("every header in README.md and docs/*.md is an in-order selection of one table's columns")
    void headersMatchTheTable() throws IOException {
        List<String> verdict = new ArrayList<>();
        List<String> full = new ArrayList<>();
        for (Path page : pages()) {
            for (String line : Files.readAllLines(page)) {
                if (!line.startsWith("TEST ")) {
                    continue;
                }
                List<String> columns = Arrays.asList(COLUMN_GAP.split(line.strip()));
                String where = ROOT.relativize(page) + ": " + columns;
                if (columns.get(1).equals("OUTCOME")) {
                    // the default table: the verdict first
                    verdict.add(where);
                    assertThat(columns.subList(0, 4)).as("%s: the verdict leads", where)
                            .isEqualTo(VerdictTable.LEADING);
                    assertThat(isInOrderSubsetOf(columns, VerdictTable.HEADERS))
                            .as("%s shows a console header the table no longer prints; today's columns: %s", where,
                                    VerdictTable.HEADERS)
                            .isTrue();
                    continue;
                }
                full.add(where);
                assertThat(isInOrderSubsetOf(columns, ConsoleTable.HEADERS))
                        .as("%s shows a console header the full table no longer prints; today's columns: %s",
                                where, ConsoleTable.HEADERS)
                        .isTrue();
                assertThat(columns).as("%s: every table has an OUTCOME column", where)
                        .contains("OUTCOME", "BUDGETS");
                assertThat(columns.subList(0, 9)).as("%s: docker's columns come first", where)
                        .isEqualTo(ConsoleTable.HEADERS.subList(0, 9));
            }
        }
        assertThat(verdict).as("the pages that show the default console table").hasSizeGreaterThanOrEqualTo(2);
        assertThat(full).as("the pages that show vitals.console=full").isNotEmpty();
    }

    @Test
    @DisplayName("every row of a default table in the docs fits 120 columns, as the console's does")
    void verdictTablesFit() throws IOException {
        for (Path page : pages()) {
            boolean inVerdictTable = false;
            for (String line : Files.readAllLines(page)) {
                if (line.startsWith("TEST ") && COLUMN_GAP.split(line.strip())[1].equals("OUTCOME")) {
                    inVerdictTable = true;
                } else if (line.startsWith("```")) {
                    inVerdictTable = false;
                }
                if (inVerdictTable) {
                    assertThat(line.length()).as("%s: %s", ROOT.relativize(page), line)
                            .isLessThanOrEqualTo(VerdictTable.WIDTH);
                }
            }
        }
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
