package io.vitals.internal.regression;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * What the run history adds to a test's verdict: the testbed it was judged on, how many earlier builds of that
 * testbed it was judged against, notes (a first build on a testbed, a step in an earlier build), and the trend of
 * each figure that moved, for the reports' charts.
 *
 * @param testbed the testbed the test's containers ran on, in words (the first container's, when they differ)
 * @param builds how many earlier builds on that testbed the figures were judged against (the fewest over them)
 * @param notes one sentence each, e.g. "first build on testbed tb-3f9a0c1d (...); nearest: tb-71c2 (cpus 2 → 1)"
 * @param trends the figures that regressed, improved or stepped in an earlier build, each with its builds
 */
@API(status = INTERNAL, since = "0.1")
public record HistoryContext(String testbed, int builds, List<String> notes, List<Trend> trends) {

    public HistoryContext {
        notes = List.copyOf(notes);
        trends = List.copyOf(trends);
    }

    /**
     * One figure's builds on one testbed, oldest first, this build last.
     *
     * @param container the container
     * @param phase the phase; empty for the whole test
     * @param metric the metric's key
     * @param points each build's figure
     * @param step the most recent step the change-point analysis found, if any
     */
    public record Trend(String container, String phase, String metric, List<Point> points, Optional<Step> step) {

        public Trend {
            points = List.copyOf(points);
        }
    }

    /**
     * A build's figure.
     *
     * @param build the build's id
     * @param commit its commit, if recorded
     * @param at when it ran
     * @param value the figure (the median of its repetitions), in the metric's base unit
     */
    public record Point(String build, Optional<String> commit, Instant at, double value) {
    }

    /**
     * Where a figure stepped, as the change-point analysis (E-divisive means) names it.
     *
     * @param index the index in {@link Trend#points} of the first build of the new level
     * @param build that build, as reports name it: "build 9012-1 (commit 3f9a0c1, main, 2026-12-03)"
     * @param before the median of the builds before it
     * @param after the median of the builds from it on
     * @param effectPercent the step, in % of {@code before}
     * @param p the step's p-value
     */
    public record Step(int index, String build, double before, double after, double effectPercent, double p) {
    }
}
