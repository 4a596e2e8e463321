package io.vitals.internal.budget;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.ProbeKind;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.Resource;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Decides whether this host can measure a budget's figure at all, so that a budget on a figure nobody counted is
 * never a silent pass. Such a budget is reported as "not measurable here", with the host's shape and the way out;
 * it passes with that mark by default and fails under {@code vitals.strict=true}.
 *
 * <p>Only block I/O is affected today. cgroup v1 charges a buffered write's writeback to whoever flushes the page,
 * not to the container that dirtied it, so a v1 write figure is at best a lower bound; and where the container's
 * storage has no block device the blkio controller accounts nothing at all (this project's CI host counts 0 B for
 * 64 MiB of direct I/O). A zero from v1 or from the Engine API cannot be told apart from "not counted". cgroup v2
 * attributes writeback to the writer's cgroup, so its figures are taken as measured.
 *
 * <p>Apart from what the host can count, a trend needs a window long enough to have one: memory growth on a window
 * shorter than {@link #MIN_TREND_WINDOW} or with fewer than {@value #MIN_TREND_POINTS} points is "too short to
 * estimate a trend" ({@link #trendTooShort}). Its budget is not measurable, and the console, the HTML page and
 * summary.md print "–" with that reason instead of a rate.
 */
@API(status = INTERNAL, since = "0.1")
public final class Measurability {

    /**
     * The shortest window whose memory slope is reported. Every report prints the slope per minute, so a 10 s window
     * is already extrapolated six-fold; and what a shorter window sees is mostly a start-up ramp (a heap sized up, a
     * model loaded) or one garbage collector's cycle, which last seconds: a 557 ms test read "24.4 GiB/min".
     */
    public static final Duration MIN_TREND_WINDOW = Duration.ofSeconds(10);

    /**
     * The fewest timeline points a slope is reported for: Theil–Sen's median of 190 pairwise slopes (20 points)
     * stays put under a few spikes or a saw-tooth (it tolerates some 29 % of bad points); with a handful of points,
     * one spike is the median.
     */
    public static final int MIN_TREND_POINTS = 20;

    /** The reason's words, which a report's hover or note shows. */
    public static final String TOO_SHORT_FOR_TREND = "too short to estimate a trend";

    /** The rule in one sentence, for a report's note under a table of many such cells. */
    public static final String TREND_RULE = "memory growth: " + TOO_SHORT_FOR_TREND + " (a window shorter than "
            + MIN_TREND_WINDOW.toSeconds() + " s or with fewer than " + MIN_TREND_POINTS + " points); a budget on it"
            + " is not measurable";

    private Measurability() {
    }

    /**
     * Why {@code metric} (memory growth, the only trend) means nothing for {@code usage}: its window is shorter than
     * {@link #MIN_TREND_WINDOW} or has fewer than {@link #MIN_TREND_POINTS} points. Empty for every other figure
     * and for a window long enough. A reason of the test's window, not of the host: the JSON files and vitals.prom
     * keep the fitted slope for whoever wants it, and assertions ({@code hasMemoryGrowthAtMost}) still judge it.
     */
    public static Optional<String> trendTooShort(Metric metric, ResourceUsage usage) {
        if (metric != Metric.MEMORY_GROWTH) {
            return Optional.empty();
        }
        List<TimelinePoint> points = usage.timeline().points();
        Duration span = points.isEmpty() ? Duration.ZERO
                : points.get(points.size() - 1).offset().minus(points.get(0).offset());
        if (span.compareTo(MIN_TREND_WINDOW) >= 0 && points.size() >= MIN_TREND_POINTS) {
            return Optional.empty();
        }
        return Optional.of(metric.key() + " is " + TOO_SHORT_FOR_TREND + ": the window holds " + points.size()
                + " points over " + seconds(span) + "; a slope needs at least " + MIN_TREND_POINTS + " points over "
                + MIN_TREND_WINDOW.toSeconds() + " s");
    }

    /** "0.53 s": the span to the hundredth, rounded half up; written out by hand since every table row asks. */
    static String seconds(Duration span) {
        long hundredths = (span.toMillis() + 5) / 10;
        long fraction = hundredths % 100;
        return hundredths / 100 + (fraction < 10 ? ".0" : ".") + fraction + " s";
    }

    /** Why {@code metric} cannot be measured on the host {@code usage} came from; empty when it can. */
    public static Optional<String> reason(Metric metric, ResourceUsage usage) {
        Optional<String> missing = metric.unmeasurableReason(usage);
        if (missing.isPresent()) {
            return Optional.of(metric.key() + " cannot be measured here: " + missing.get());
        }
        if (metric.resource() != Resource.BLOCK_IO) {
            return Optional.empty();
        }
        double counted = metric.read(usage);
        String figure = metric.attribute() + " cannot be measured here: ";
        if (usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1 && metric == Metric.BLOCK_WRITE) {
            return Optional.of(figure + "cgroup v1 does not attribute buffered writeback to the container that wrote"
                    + (counted == 0 ? ", and its blkio controller counted nothing for this container" : "")
                    + "; run on a cgroup v2 host");
        }
        if (counted > 0 || usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V2) {
            return Optional.empty();
        }
        return Optional.of(figure + (usage.probe().exactnessKind() == ProbeKind.HOST_CGROUP_V1
                ? "cgroup v1's blkio controller counted 0 B for this container, which cannot be told apart from I/O "
                        + "it does not account (storage without a block device, buffered I/O)"
                : "the Docker Engine API reported 0 B for this container, which cannot be told apart from an "
                        + "engine or cgroup v1 host that does not account block I/O")
                + "; run on a cgroup v2 host with the host cgroup probe");
    }

    /**
     * The result as judged on this host: unchanged when its figure is measurable (and, for a trend, its window long
     * enough: {@link #trendTooShort}); otherwise
     * {@link BudgetStatus#NOT_MEASURABLE}, with the reason as its note, passed unless {@code strict}.
     */
    public static BudgetResult apply(BudgetResult result, ResourceUsage usage, boolean strict) {
        Optional<String> reason = reason(result.metric(), usage).or(() -> trendTooShort(result.metric(), usage));
        if (reason.isEmpty()) {
            return result;
        }
        String note = reason.get() + (strict ? " (" + MeasureResources.STRICT_KEY + "=true fails such a budget)"
                : " (set " + MeasureResources.STRICT_KEY + "=true to fail such a budget)");
        return result.notMeasurable(note, strict);
    }
}
