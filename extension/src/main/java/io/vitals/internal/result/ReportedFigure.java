package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.metric.Metric;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * One figure of one usage as every writer shows or stores it: its value, or absent. A figure this host cannot
 * measure (block write on cgroup v1, a zero the Engine API cannot tell from "not counted", GPU figures without a
 * GPU) is absent, never 0, in the console, the JSON files, the HTML page, summary.md, vitals.prom, the baseline,
 * the history and the suggested budgets.
 *
 * <p>Whether the host measured a figure is decided once, by {@link Measurability#reason} (the rule that also marks
 * a budget "not measurable here"), and for the OOM kill count by {@link #oomKills}; writers ask this class and
 * never re-derive it, so the formats cannot disagree.
 *
 * @param value the figure in its base unit; empty when it is absent or not known (headroom without a limit)
 * @param notMeasured why the host could not measure it; empty when it could
 * @param hostWords the figure's own words for its absence ("no GPU visible"); empty where it has none
 */
@API(status = INTERNAL, since = "0.1")
public record ReportedFigure(OptionalDouble value, Optional<String> notMeasured, Optional<String> hostWords) {

    /** What a report cell prints for a figure this host did not measure (the reason goes in a hover or note). */
    public static final String NOT_MEASURED_HERE = "not measured here";

    public ReportedFigure {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(notMeasured, "notMeasured");
        Objects.requireNonNull(hostWords, "hostWords");
        if (value.isPresent() && notMeasured.isPresent()) {
            throw new IllegalArgumentException("a figure is either measured or not: " + value + " " + notMeasured);
        }
    }

    /** {@code metric} of {@code usage}, absent where {@link Measurability#reason} says the host cannot measure it. */
    public static ReportedFigure of(Metric metric, ResourceUsage usage) {
        Optional<String> reason = Measurability.reason(metric, usage);
        if (reason.isPresent()) {
            // a figure with a host reason of its own (no GPU visible) keeps that reason as it was, so a file read
            // back and written again is the same; the others say which figure and why
            Optional<String> own = metric.unmeasurableReason(usage);
            return new ReportedFigure(OptionalDouble.empty(), own.or(() -> reason), own.isPresent()
                    ? Optional.of(metric.absence(usage).orElse(NOT_MEASURED_HERE)) : Optional.empty());
        }
        return new ReportedFigure(metric.value(usage), Optional.empty(), Optional.empty());
    }

    /**
     * The OOM kills of {@code usage}: the kernel's oom_kill counter, read from the cgroup files by the host cgroup
     * probe; absent from the Engine API, whose stats carry no such count (its 0 would claim that none happened).
     */
    public static ReportedFigure oomKills(ResourceUsage usage) {
        return usage.probe() == ProbeKind.ENGINE_API
                ? new ReportedFigure(OptionalDouble.empty(), Optional.of("The Docker Engine API's stats count no OOM "
                        + "kills; the host cgroup probe reads the kernel's oom_kill counter."), Optional.empty())
                : new ReportedFigure(OptionalDouble.of(usage.oomKills()), Optional.empty(), Optional.empty());
    }

    /** Whether the host could not measure the figure (as opposed to measured, or not known for the test's reason). */
    public boolean isNotMeasured() {
        return notMeasured.isPresent();
    }

    /**
     * The words for a figure without a value: the figure's own for a host reason ("no GPU visible"), else
     * {@code notMeasuredMark} where the host could not measure it, else {@code unknownMark}.
     */
    public String missing(String unknownMark, String notMeasuredMark) {
        return notMeasured.isPresent() ? hostWords.orElse(notMeasuredMark) : unknownMark;
    }
}
