package io.vitals.internal.packages;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.packages.PackageGroups.Edge;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * No package depends on itself through others: every package of the main code, the root {@code io.vitals} and each
 * subpackage on its own, is checked for import cycles (see docs/architecture.md for the layers).
 *
 * <p>Beyond that, the budget, result, regression, report, files and JUnit packages depend on one another in one direction only:
 * the result model holds budget results; the regression analysis reads results; reports write results and
 * verdicts; the extension drives them all. Judging a budget needs no result, verdict or report, and deciding a
 * regression needs no report writer. A cycle would make each impossible to change, test or move without the others.
 */
@DisplayName("Package dependencies: no cycle among all packages; budget, result, regression, report, files, junit, "
        + "metric, probe and sampling in one direction")
class PackageCyclesTests {

    private static final Map<String, String> GROUPS = Map.of(
            "io.vitals.internal.budget", "budget",
            "io.vitals.internal.result", "result",
            "io.vitals.internal.regression", "regression",
            "io.vitals.internal.report", "report",
            "io.vitals.internal.files", "files",
            "io.vitals.internal.junit", "junit",
            "io.vitals.internal.metric", "metric",
            "io.vitals.internal.probe", "probe",
            "io.vitals.internal.sampling", "sampling");

    private static final Path MAIN = Path.of("src", "main", "java");

    private static PackageGroups main() {
        return new PackageGroups(GROUPS).scan(MAIN);
    }

    @Test
    @DisplayName("no import cycle among all packages, each on its own, the root io.vitals included")
    void noCycleAmongAllPackages() {
        PackageGroups all = PackageGroups.everyPackage(MAIN);
        List<Edge> cycle = all.cycleEdges();

        assertThat(cycle).as(() -> all.describe(cycle)).isEmpty();
    }

    @Test
    @DisplayName("the public API io.vitals depends on no internal package but the unit helpers")
    void rootDependsOnlyOnUnits() {
        PackageGroups all = PackageGroups.everyPackage(MAIN);
        List<Edge> intoInternals = all.edges().keySet().stream()
                .filter(edge -> edge.from().equals("io.vitals") && !edge.to().equals("io.vitals.internal.units"))
                .toList();

        assertThat(intoInternals).as(() -> all.describe(intoInternals)).isEmpty();
    }

    @Test
    @DisplayName("every package is scanned on its own: the root, the report model below its writers, internal "
            + "code on the API")
    void seesEveryPackageOnItsOwn() {
        PackageGroups all = PackageGroups.everyPackage(MAIN);

        assertThat(all.edges()).containsKeys(
                new Edge("io.vitals.internal.junit", "io.vitals"),
                new Edge("io.vitals.internal.metric", "io.vitals"),
                new Edge("io.vitals", "io.vitals.internal.units"),
                new Edge("io.vitals.internal.report.console", "io.vitals.internal.report.model"),
                new Edge("io.vitals.internal.report", "io.vitals.internal.report.model"),
                new Edge("io.vitals.internal.regression.suggest", "io.vitals.internal.regression.history"));
        assertThat(all.edges()).doesNotContainKeys(
                new Edge("io.vitals", "io.vitals.internal.junit"),
                new Edge("io.vitals", "io.vitals.internal.metric"),
                new Edge("io.vitals.internal.report.console", "io.vitals.internal.report"),
                new Edge("io.vitals.internal.regression.history", "io.vitals.internal.regression.suggest"));
    }

    @Test
    @DisplayName("budget depends on neither report nor regression (they show and compare budget results)")
    void budgetDependsOnNeitherReportNorRegression() {
        assertNoEdges(new Edge("budget", "report"), new Edge("budget", "regression"));
    }

    @Test
    @DisplayName("result, the shared model, depends on neither report, regression nor junit")
    void resultDependsOnNeitherReportNorRegression() {
        assertNoEdges(new Edge("result", "report"), new Edge("result", "regression"), new Edge("result", "junit"));
    }

    @Test
    @DisplayName("regression does not depend on report or junit: the verdict needs no writer")
    void regressionDoesNotDependOnReport() {
        assertNoEdges(new Edge("regression", "report"), new Edge("regression", "junit"));
    }

    @Test
    @DisplayName("metric, the figures' descriptors, depends on neither the probes nor the sampler that read them")
    void metricDependsOnNeitherProbeNorSampling() {
        assertNoEdges(new Edge("metric", "probe"), new Edge("metric", "sampling"), new Edge("probe", "sampling"));
    }

    @Test
    @DisplayName("files, the file helpers, depend on no other group")
    void filesDependOnNoGroup() {
        PackageGroups main = main();
        List<Edge> fromFiles = main.edges().keySet().stream().filter(edge -> edge.from().equals("files")).toList();

        assertThat(fromFiles).as(() -> main.describe(fromFiles)).isEmpty();
    }

    @Test
    @DisplayName("the scan sees the dependencies the code has: report on regression and result, regression on "
            + "result, result on budget, junit on all but files")
    void seesTheRealEdges() {
        assertThat(main().edges()).containsKeys(new Edge("report", "budget"), new Edge("report", "result"),
                new Edge("report", "regression"), new Edge("report", "files"), new Edge("regression", "result"),
                new Edge("regression", "files"), new Edge("result", "budget"), new Edge("junit", "budget"),
                new Edge("junit", "result"), new Edge("junit", "regression"), new Edge("junit", "report"));
    }

    private static void assertNoEdges(Edge... wrongWay) {
        PackageGroups main = main();
        List<Edge> present = Stream.of(wrongWay).filter(main.edges()::containsKey).toList();

        assertThat(present).as(() -> main.describe(present)).isEmpty();
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
                import cycle among [budget, files, junit, metric, probe, regression, report, result, sampling]:
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
