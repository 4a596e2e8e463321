package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.vitals.MeasureResources;
import io.vitals.internal.report.ReportSession;
import io.vitals.testing.StressContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The run's files written once the last test has ended, while the class stops its container, through the launcher
 * as a build tool runs the tests (the engine test kit has no launcher session, so no {@code RunProgress}): complete
 * either way, also when the class adds to the reports after its last test.
 */
@DisplayName("Run-wide reports written while the last class ends")
class ReportsAheadOfTheEndIT {

    @TempDir
    Path reports;

    /** Runs {@code fixture} through the launcher; returns when each class finished (its container stopped). */
    private List<Instant> run(Class<?> fixture) {
        List<Instant> classesFinished = Collections.synchronizedList(new ArrayList<>());
        TestExecutionListener classEnds = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                if (identifier.getSource().filter(ClassSource.class::isInstance).isPresent()) {
                    classesFinished.add(Instant.now());
                }
            }
        };
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture))
                .configurationParameter("vitals.reportDir", reports.toString())
                .configurationParameter("vitals.console", "off").build(), classEnds);
        return classesFinished;
    }

    private JsonNode index() throws IOException {
        return new ObjectMapper().readTree(reports.resolve(ReportSession.INDEX_FILE).toFile());
    }

    @Test
    @DisplayName("written before the class's container stopped, and holding every test")
    void writtenBeforeTheContainerStopped() throws IOException {
        List<Instant> classFinished = run(TwoTestCases.class);

        JsonNode index = index();
        assertThat(index.get("tests")).hasSize(2);
        // generated when the last test ended, not at the run's close after the container stopped
        assertThat(Instant.parse(index.get("generatedAt").asText())).isBefore(classFinished.get(0));
        assertThat(Files.readString(reports.resolve(ReportSession.HTML_FILE))).contains("first()", "second()");
    }

    @Test
    @DisplayName("an @AfterAll failing after the last test: the files are written again at the close, with the class")
    void writtenAgainWhenTheClassFailsAfterItsTests() throws IOException {
        List<Instant> classFinished = run(FailingAfterAllTestCases.class);

        JsonNode index = index();
        assertThat(index.get("tests")).hasSize(3);
        assertThat(index.findValuesAsText("outcome")).containsExactly("PASSED", "PASSED", "FAILED");
        assertThat(Instant.parse(index.get("generatedAt").asText())).isAfterOrEqualTo(classFinished.get(0));
        assertThat(Files.readString(reports.resolve(ReportSession.SUMMARY_FILE)))
                .contains("the @AfterAll method broke");
    }

    @MeasureResources
    static class TwoTestCases {

        @org.testcontainers.junit.jupiter.Container
        static final StressContainer stress = new StressContainer();

        @Test
        void first() {
        }

        @Test
        void second() {
        }
    }

    /** The same two tests (and {@code @MeasureResources}, which is inherited), and an {@code @AfterAll} failing. */
    static class FailingAfterAllTestCases extends TwoTestCases {

        @AfterAll
        static void breaks() {
            throw new IllegalStateException("the @AfterAll method broke");
        }
    }
}
