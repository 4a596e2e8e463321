package io.vitals.internal.regression.stats;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

import org.apiguardian.api.API;

/**
 * Why a metric counts as changed (or not): which rule decided, on how many measurements, with the effect and,
 * where the rule gives them, its interval and p-value.
 *
 * @param rule the rule that decided
 * @param newRuns how many measurements of this run were compared: 1, the build's figure (the median of its repetitions)
 * @param historyRuns how many earlier builds (on the same testbed) they were compared with
 * @param newMedian the median of this run's measurements
 * @param historyMedian the median of the history's measurements
 * @param effectPercent the change of the median in % of the history's median; infinite from a median of zero
 * @param interval the confidence interval of the effect in %, for {@link Rule#MANN_WHITNEY}
 * @param p the two-sided p-value, for {@link Rule#MANN_WHITNEY}
 * @param exact whether {@code p} is exact (small samples without ties) rather than the normal approximation
 * @param robustZ the robust z-score of the one new measurement, for {@link Rule#ROBUST_Z}
 * @param significant whether the rule's test passed its threshold (always true for {@link Rule#TOLERANCE})
 */
@API(status = INTERNAL, since = "0.1")
public record Evidence(Rule rule, int newRuns, int historyRuns, double newMedian, double historyMedian,
        double effectPercent, Optional<Bootstrap.Interval> interval, OptionalDouble p, boolean exact,
        OptionalDouble robustZ, boolean significant) {

    /** The rules, from the strongest evidence to the weakest. */
    public enum Rule {
        /**
         * Several measurements now and at least two before: Mann–Whitney U for significance, a bootstrap interval
         * of the difference of medians for the effect.
         */
        MANN_WHITNEY,
        /**
         * One measurement now and at least five before: its robust z-score {@code (x - median) / (1.4826 MAD)}
         * must exceed 3.5 (Iglewicz and Hoaglin's cut-off for outliers).
         */
        ROBUST_Z,
        /** Too few measurements for a test: the medians are compared with the tolerance alone. */
        TOLERANCE,
        /**
         * The run history's rule for one build: outside the 99.9 % prediction interval of the earlier builds of its
         * testbed ({@link PredictionBound}); {@code interval} holds that interval in % of their median, {@code p}
         * the one-sided p-value.
         */
        PREDICTION_BOUND,
        /**
         * The run history's rule for a move that holds: this build and the two before it all outside the 95 %
         * prediction interval of the builds before them; {@code newRuns} is 3, {@code newMedian} their median.
         */
        SUSTAINED
    }

    /**
     * E.g. {@code +18.0 % [+12.1 %, +25.3 %], p = 0.002, 5 vs 10 runs}, {@code +25.0 %, robust z = 4.1, 1 vs 10
     * runs}, or {@code +25.0 %, 1 vs 3 runs, too few for a test}.
     */
    public String describe() {
        StringBuilder out = new StringBuilder(percent(effectPercent));
        interval.ifPresent(i -> out.append(" [").append(percent(i.low())).append(", ").append(percent(i.high()))
                .append(']'));
        p.ifPresent(value -> out.append(", p ").append(pValue(value)));
        robustZ.ifPresent(z -> out.append(", robust z = ").append(Double.isInfinite(z) ? (z > 0 ? "+∞" : "-∞")
                : String.format(Locale.ROOT, "%.1f", z)));
        if (rule == Rule.PREDICTION_BOUND || rule == Rule.SUSTAINED) {
            out.setLength(0);
            out.append(percent(effectPercent)).append(rule == Rule.SUSTAINED ? ", three builds in a row" : "")
                    .append(" outside the ").append(rule == Rule.SUSTAINED ? "95" : "99.9").append(" % prediction interval");
            interval.ifPresent(i -> out.append(" [").append(percent(i.low())).append(", ").append(percent(i.high()))
                    .append(']'));
            p.ifPresent(value -> out.append(", p ").append(pValue(value)));
            return out.append(" of ").append(historyRuns).append(historyRuns == 1 ? " earlier build" : " earlier builds")
                    .toString();
        }
        out.append(", ").append(newRuns == 1 ? "this build" : newRuns + " measurements").append(" vs ").append(historyRuns)
                .append(historyRuns == 1 ? " earlier build" : " earlier builds");
        if (rule == Rule.TOLERANCE) {
            out.append(", too few for a test");
        }
        return out.toString();
    }

    /** The rule in words, for reports: "Mann–Whitney U (exact)", "robust z-score (median/MAD)", ... */
    public String ruleName() {
        switch (rule) {
            case MANN_WHITNEY:
                return "Mann–Whitney U (" + (exact ? "exact" : "normal approximation, tie-corrected")
                        + ") + bootstrap interval of the median";
            case ROBUST_Z:
                return "robust z-score (median/MAD) > 3.5";
            case PREDICTION_BOUND:
                return "outside the 99.9 % prediction interval of the earlier builds (log-normal, Student's t)";
            case SUSTAINED:
                return "three builds in a row outside the 95 % prediction interval of the builds before them";
            default:
                return "median vs tolerance";
        }
    }

    static String percent(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "+∞ %" : "-∞ %";
        }
        return String.format(Locale.ROOT, "%+.1f %%", value);
    }

    // "0.002", "0.048", "< 0.001": three decimals are what benchstat prints, and enough to read against alpha.
    static String pValue(double p) {
        return p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "= %.3f", p);
    }
}
