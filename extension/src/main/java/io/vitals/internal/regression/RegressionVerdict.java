package io.vitals.internal.regression;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * How one test compares with the baseline (or the run history that stands where a baseline would): the regression
 * analysis's part in the test's verdict. The extension fails the test with {@link #message()} when
 * {@link #failsTest()}, besides any budget breach; the reports show {@link #lines()}.
 *
 * @param testKey the test's key in the baseline
 * @param inBaseline whether the baseline holds the test at all; a test it lacks is reported, never passed quietly
 * @param newContainers containers of the test the baseline has no figures for
 * @param findings regressions and improvements beyond tolerance, regressions first
 * @param runs how many runs the baseline holds for the test (the fewest over its metrics); 0 when not in it
 * @param failsTest whether the caller should fail the test: regressions in {@code fail} mode, and not while the
 *     baseline is being updated; stored figures that cannot be read in {@code fail} mode, updating or not
 * @param multipleContainers whether the test watches several containers, so messages must name them
 * @param unusable why nothing could be compared because the stored figures (baseline or history) cannot be read,
 *     naming file, line and reason; empty when they could
 * @param history what the run history adds (testbed, notes, trends) when the test was judged against one
 */
@API(status = INTERNAL, since = "0.1")
public record RegressionVerdict(String testKey, boolean inBaseline, List<String> newContainers,
        List<RegressionFinding> findings, int runs, boolean failsTest, boolean multipleContainers,
        Optional<String> unusable, Optional<HistoryContext> history) {

    public RegressionVerdict {
        newContainers = List.copyOf(newContainers);
        findings = List.copyOf(findings);
    }

    /** A verdict without a run history's context. */
    public RegressionVerdict(String testKey, boolean inBaseline, List<String> newContainers,
            List<RegressionFinding> findings, int runs, boolean failsTest, boolean multipleContainers,
            Optional<String> unusable) {
        this(testKey, inBaseline, newContainers, findings, runs, failsTest, multipleContainers, unusable,
                Optional.empty());
    }

    /** A verdict of a comparison that took place (the stored figures could be read). */
    public RegressionVerdict(String testKey, boolean inBaseline, List<String> newContainers,
            List<RegressionFinding> findings, int runs, boolean failsTest, boolean multipleContainers) {
        this(testKey, inBaseline, newContainers, findings, runs, failsTest, multipleContainers, Optional.empty());
    }

    /**
     * The verdict when the stored figures cannot be read: nothing is compared, and in {@code fail} mode the test
     * fails with {@code reason}, so that a broken baseline stops the build instead of passing every test unchecked.
     */
    public static RegressionVerdict unusable(String testKey, String reason, boolean failsTest,
            boolean multipleContainers) {
        return new RegressionVerdict(testKey, true, List.of(), List.of(), 0, failsTest, multipleContainers,
                Optional.of(reason));
    }

    /** A verdict with nothing to say, for runs without a baseline. */
    public static RegressionVerdict none(String testKey) {
        return new RegressionVerdict(testKey, true, List.of(), List.of(), 0, false, false);
    }

    public List<RegressionFinding> regressions() {
        return findings.stream().filter(f -> f.kind() == RegressionFinding.Kind.REGRESSION).collect(Collectors.toList());
    }

    public List<RegressionFinding> improvements() {
        return findings.stream().filter(f -> f.kind() == RegressionFinding.Kind.IMPROVEMENT)
                .collect(Collectors.toList());
    }

    public boolean hasRegressions() {
        return !regressions().isEmpty();
    }

    /** True when there is anything to tell: a regression, an improvement, or something missing. */
    public boolean isNoteworthy() {
        return unusable.isPresent() || !inBaseline || !newContainers.isEmpty() || !findings.isEmpty()
                || history.isPresent() && !history.get().notes().isEmpty();
    }

    /** One line per thing to tell, regressions first; empty when all is within tolerance. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        unusable.ifPresent(reason -> lines.add("not compared: " + reason));
        String stored = history.isPresent() ? "the run history" : "the baseline";
        if (!inBaseline) {
            lines.add("not in " + stored + " yet: nothing to compare with"
                    + history.map(h -> " (first build on testbed " + h.testbed() + ")").orElse(""));
        }
        for (String container : newContainers) {
            lines.add("container '" + container + "' is not in " + stored + " yet: nothing to compare with");
        }
        for (RegressionFinding finding : findings) {
            lines.add((multipleContainers ? "container '" + finding.container() + "': " : "") + finding.message());
        }
        history.ifPresent(h -> lines.addAll(h.notes()));
        return lines;
    }

    /**
     * The message for a failed test, e.g. {@code Resource usage regressed against the baseline:} followed by one
     * indented line per regression.
     */
    public String message() {
        if (unusable.isPresent()) {
            return "Resource usage of " + testKey + " could not be compared: " + unusable.get();
        }
        StringBuilder out = new StringBuilder("Resource usage of ").append(testKey).append(" regressed against the ");
        if (history.isPresent()) {
            out.append("run history (").append(runs).append(runs == 1 ? " earlier build" : " earlier builds")
                    .append(" on testbed ").append(history.get().testbed()).append(')');
        } else {
            out.append("baseline");
            if (runs > 1) {
                out.append(" (median of ").append(runs).append(" runs)");
            }
        }
        out.append(':');
        for (RegressionFinding finding : regressions()) {
            out.append(System.lineSeparator()).append("  ")
                    .append(multipleContainers ? "container '" + finding.container() + "': " : "")
                    .append(finding.message());
        }
        return out.toString();
    }
}
