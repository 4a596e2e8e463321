package io.vitals.internal.budget;

/**
 * One budget on one metric: the value as written and as a number in the metric's base unit.
 *
 * @param metric the metric
 * @param text the value as written, e.g. "1.5GiB"
 * @param value the value in the metric's base unit
 */
public record Limit(Metric metric, String text, double value) {

    /**
     * Parses {@code text} for {@code metric}.
     *
     * @throws IllegalArgumentException naming the value and the accepted forms, and a hint where a near miss is
     *     obvious ("did you mean 5s?")
     */
    public static Limit parse(Metric metric, String text) {
        double value;
        try {
            value = metric.unit().parse(text);
        } catch (IllegalArgumentException e) {
            String hint = NearMiss.hint(metric.unit(), text).map(h -> "; " + h).orElse("");
            throw new IllegalArgumentException(e.getMessage() + hint, e);
        }
        if (metric == Metric.MEMORY_HEADROOM && value > 100.0) {
            throw new IllegalArgumentException("Invalid headroom '" + text
                    + "': a share of the memory limit cannot exceed 100%");
        }
        return new Limit(metric, text.trim(), value);
    }
}
