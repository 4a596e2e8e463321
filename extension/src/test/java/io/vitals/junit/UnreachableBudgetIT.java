package io.vitals.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.MeasureResources;
import io.vitals.ResourceBudget;
import io.vitals.testing.StressContainer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;

/**
 * {@code peakMemory = "2GiB"} on a container started with a 512 MiB limit can never break: a real container's limit,
 * read from the engine, is named beside the budget, once for the class however many of its tests run.
 */
@DisplayName("A budget above the container's memory limit")
class UnreachableBudgetIT {

    @TempDir
    Path reports;

    @Test
    @DisplayName("warns once per class and container, naming the budget and the limit docker inspect reports")
    void warnsOnceNamingBoth() {
        // slf4j-simple (the test binding) writes the io.vitals.test logger to System.err, looked up on every line
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            VitalsTestKit.assertAllSucceeded(VitalsTestKit.run(reports, AboveTheLimitTestCases.class), 2);
        } finally {
            System.setErr(err);
        }

        List<String> warnings = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("can never break")).toList();
        assertThat(warnings).singleElement().satisfies(line -> assertThat(line).endsWith(
                "WARN io.vitals.test - @ResourceBudget(peakMemory = \"2GiB\") on container 'stress' of "
                        + "AboveTheLimitTestCases can never break: 2GiB is above the container's memory limit of "
                        + "512.0 MiB, where the kernel reclaims or OOM-kills first. Set a budget under the limit, "
                        + "or raise it."));
    }

    @MeasureResources
    @ResourceBudget(peakMemory = "2GiB")
    static class AboveTheLimitTestCases {

        @Container
        static final StressContainer stress = new StressContainer().withMemoryLimit("512MiB");

        @Test
        void first() {
        }

        @Test
        void second() {
        }
    }
}
