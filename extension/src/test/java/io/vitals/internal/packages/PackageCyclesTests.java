package io.vitals.internal.packages;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.packages.PackageGroups.Edge;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The budget, report and JUnit packages depend on one another in one direction only: reports show budget results
 * and the extension drives both, but judging a budget needs no report. A cycle would make each impossible to
 * change, test or move without the others.
 */
@DisplayName("Package dependencies between budget, report and junit")
class PackageCyclesTests {

    private static final Map<String, String> GROUPS = Map.of(
            "io.vitals.internal.budget", "budget",
            "io.vitals.internal.report", "report",
            "io.vitals.internal.junit", "junit");

    private static final Path MAIN = Path.of("src", "main", "java");

    private static PackageGroups main() {
        return new PackageGroups(GROUPS).scan(MAIN);
    }

    @Test
    @DisplayName("no import cycle among the three groups")
    void noCycle() {
        PackageGroups main = main();
        List<Edge> cycle = main.cycleEdges();

        assertThat(cycle).as(() -> main.describe(cycle)).isEmpty();
    }

    @Test
    @DisplayName("budget does not depend on report (report shows budget results, not the other way round)")
    void budgetDoesNotDependOnReport() {
        PackageGroups main = main();
        Edge wrongWay = new Edge("budget", "report");

        assertThat(main.edges()).as(() -> main.describe(List.of(wrongWay))).doesNotContainKey(wrongWay);
    }

    @Test
    @DisplayName("the scan sees the dependencies the code has: report and junit on budget, junit on report")
    void seesTheRealEdges() {
        assertThat(main().edges()).containsKeys(new Edge("report", "budget"), new Edge("junit", "budget"),
                new Edge("junit", "report"));
    }

    @Test
    @DisplayName("a cycle is reported edge by edge, naming the file and the reference behind each")
    void namesEachEdgeOfACycle() {
        PackageGroups groups = new PackageGroups(GROUPS)
                .add("budget/Judge.java", """
                        package io.vitals.internal.budget;

                        import io.vitals.internal.report.Shown;
                        """)
                .add("report/Writer.java", """
                        package io.vitals.internal.report.json;

                        class Writer {
                            io.vitals.internal.budget.Result result;
                        }
                        """)
                .add("junit/Extension.java", """
                        package io.vitals.internal.junit;

                        import static io.vitals.internal.report.Names.name;
                        """);

        List<Edge> cycle = groups.cycleEdges();

        assertThat(cycle).containsExactly(new Edge("budget", "report"), new Edge("report", "budget"));
        assertThat(groups.describe(cycle)).isEqualTo("""
                import cycle among [budget, junit, report]:
                  budget -> report
                      budget/Judge.java: io.vitals.internal.report.Shown
                  report -> budget
                      report/Writer.java: io.vitals.internal.budget.Result""");
    }

    @Test
    @DisplayName("a chain is no cycle, and names in comments and strings are no dependency")
    void chainAndMentions() {
        PackageGroups groups = new PackageGroups(GROUPS)
                .add("junit/Extension.java", """
                        package io.vitals.internal.junit;

                        import io.vitals.internal.report.RunReport;
                        """)
                .add("report/Writer.java", """
                        package io.vitals.internal.report;

                        import io.vitals.internal.budget.Result;
                        """)
                .add("budget/Judge.java", """
                        package io.vitals.internal.budget;

                        /** Shown by {@link io.vitals.internal.report.Writer}. */
                        class Judge {
                            // io.vitals.internal.junit.Extension calls it
                            String name = "io.vitals.internal.report.Writer";
                        }
                        """);

        assertThat(groups.cycleEdges()).isEmpty();
        assertThat(groups.edges()).containsOnlyKeys(new Edge("junit", "report"), new Edge("report", "budget"));
    }
}
