package io.vitals;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.model.RunReport;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20: the internal packages say they are internal, and everything else public says what it is. Tools that
 * read apiguardian (IDEs, japicmp, revapi) then warn users of {@code io.vitals.internal} types and leave them out of
 * compatibility reports.
 */
@DisplayName("API status marks")
class ApiMarksTests {

    private static final ApiMarks RULE = new ApiMarks("io.vitals.internal");

    @Test
    @DisplayName("every public type of the extension carries the mark its package calls for")
    void extensionClassesAreMarked() throws Exception {
        List<Class<?>> classes = ApiMarks.classesIn(classesRoot(MeasureResources.class), "io.vitals");

        // the scan sees the compiled tree: top-level types inside and outside internal, and nested ones
        assertThat(classes).contains(MeasureResources.class, Metric.class, RunReport.Entry.class);
        assertThat(RULE.violations(classes)).isEmpty();
    }

    @Test
    @DisplayName("names each type that breaks the rule, and only those")
    void reportsEachBreach() throws Exception {
        Path testClasses = classesRoot(ApiMarksTests.class);
        List<Class<?>> fixtures = new ArrayList<>(ApiMarks.classesIn(testClasses, "io.vitals.internal.apimarks"));
        fixtures.addAll(ApiMarks.classesIn(testClasses, "io.vitals.apimarks"));

        assertThat(RULE.violations(fixtures)).containsExactlyInAnyOrder(
                "io.vitals.internal.apimarks.MarkedExperimental is public under io.vitals.internal.* but is"
                        + " @API(status = EXPERIMENTAL), not @API(status = INTERNAL)",
                "io.vitals.internal.apimarks.MarkedInternal$Widened is public under io.vitals.internal.* but is"
                        + " @API(status = EXPERIMENTAL), not @API(status = INTERNAL)",
                "io.vitals.internal.apimarks.Unmarked is public under io.vitals.internal.* but has no @API,"
                        + " not @API(status = INTERNAL)",
                "io.vitals.internal.apimarks.Unmarked$Nested is public under io.vitals.internal.* but has no @API,"
                        + " not @API(status = INTERNAL)",
                "io.vitals.apimarks.UnmarkedPublic is a public top-level type without @API");
    }

    /** The class-path directory a class was compiled into (target/classes or target/test-classes). */
    private static Path classesRoot(Class<?> type) throws URISyntaxException {
        Path root = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(root).as("%s is expected in a class directory, not a jar", type).matches(Files::isDirectory);
        return root;
    }
}
