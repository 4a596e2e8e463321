package io.vitals.internal.report.model;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.probe.HostShape;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.result.TestResult;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The input of the run-wide writers (index, HTML, Markdown, Prometheus): every finished test in the order it
 * finished, with where its JSON went and how it compared with the baseline.
 *
 * @param generatedAt when the reports were written
 * @param tests the finished tests
 * @param baseline the baseline comparison, when a baseline is configured
 */
@API(status = INTERNAL, since = "0.1")
public record RunReport(Instant generatedAt, List<Entry> tests, Optional<BaselineSummary> baseline) {

    public RunReport {
        tests = List.copyOf(tests);
    }

    /**
     * The rows of docs/metrics.md's exactness table the run's containers were measured on, in the order they first
     * appear: one on most runs, more where some containers fell back to the Engine API.
     */
    public List<HostShape.Row> hostShapes() {
        return tests.stream().flatMap(e -> e.result().containers().stream()).map(c -> c.hostShape().row())
                .distinct().toList();
    }

    /**
     * One finished test.
     *
     * @param result what was measured and decided
     * @param jsonPath its JSON file, relative to the report directory, with '/' separators
     * @param verdict how it compared with the baseline ({@link RegressionVerdict#none} without one)
     * @param expectedToFailBy the test that ran this one as a fixture and expects it to fail
     *     ({@code vitals.report.expectedToFailBy}); empty for an ordinary test
     */
    public record Entry(TestResult result, String jsonPath, RegressionVerdict verdict,
            Optional<String> expectedToFailBy) {

        /** An ordinary test, not a fixture of another. */
        public Entry(TestResult result, String jsonPath, RegressionVerdict verdict) {
            this(result, jsonPath, verdict, Optional.empty());
        }
    }

    /**
     * What the run's baseline was.
     *
     * @param file the baseline file as configured
     * @param found whether it existed and was read
     * @param keptRuns how many runs it keeps per test ({@code vitals.baseline.runs})
     * @param fewestRuns the fewest runs it holds for any test (0 when empty)
     * @param mostRuns the most runs it holds for any test
     * @param updating whether this run is appended to it
     * @param warnOnly whether regressions only warn
     * @param notRun baseline entries (test keys) this run did not execute
     * @param history whether it is a run history ({@code vitals.history}), whose runs are builds judged per
     *     testbed, rather than a {@code vitals.baseline}
     */
    public record BaselineSummary(String file, boolean found, int keptRuns, int fewestRuns, int mostRuns,
            boolean updating, boolean warnOnly,
            List<String> notRun, boolean history) {

        public BaselineSummary {
            notRun = List.copyOf(notRun);
        }

        /** A {@code vitals.baseline}'s summary. */
        public BaselineSummary(String file, boolean found, int keptRuns, int fewestRuns, int mostRuns,
                boolean updating, boolean warnOnly, List<String> notRun) {
            this(file, found, keptRuns, fewestRuns, mostRuns, updating, warnOnly, notRun, false);
        }

        /** "1 run", "3 runs", "1–3 runs". */
        public String heldRuns() {
            String runs = fewestRuns == mostRuns ? Integer.toString(mostRuns) : fewestRuns + "–" + mostRuns;
            String unit = history ? " build" : " run";
            return runs + unit + (mostRuns == 1 ? "" : "s");
        }
    }
}
