package io.vitals.internal.metric;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.SourcedValues;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.apiguardian.api.API;

/**
 * The values of the figures that declare a {@link FigureSource}, one each, in {@link Metric#sourced()} order: a
 * value, or why there is none. Made per full reading by the probes (raw values) and per window by the usage
 * calculator (aggregated). Immutable; {@link Builder#build()} refuses to leave a figure neither set nor declared
 * unavailable, so a probe cannot report a forgotten figure as an exact-looking 0.
 */
@API(status = INTERNAL, since = "0.1")
public final class SourcedFigures implements SourcedValues {

    private final double[] values;
    private final String[] reasons;
    private final Optional<AtPeak> atPeak;

    private SourcedFigures(double[] values, String[] reasons, Optional<AtPeak> atPeak) {
        this.values = values;
        this.reasons = reasons;
        this.atPeak = atPeak;
    }

    /** Every figure absent for one reason, e.g. for a usage built without a probe. */
    public static SourcedFigures absent(String reason) {
        Builder builder = builder();
        Metric.sourced().forEach(metric -> builder.unavailable(metric, reason));
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The sourced figures {@code usage} holds: those a probe read, or those of a usage built without one.
     *
     * @throws IllegalStateException where they are not this class's (nothing else implements {@link SourcedValues})
     */
    public static SourcedFigures of(ResourceUsage usage) {
        if (usage.sourcedFigures() instanceof SourcedFigures figures) {
            return figures;
        }
        throw new IllegalStateException("sourced figures of another kind: " + usage.sourcedFigures().getClass());
    }

    /** {@return the figure whose key is {@code key}, NaN where it was not read} */
    @Override
    public double read(String key) {
        return read(Metric.byKey(key).orElseThrow(() -> new IllegalArgumentException("no figure " + key)));
    }

    /** The figure in its base unit; NaN where it is absent. */
    public double read(Metric metric) {
        return values[index(metric)];
    }

    public OptionalDouble value(Metric metric) {
        double value = read(metric);
        return Double.isNaN(value) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** A count, rounded; empty where it is absent. */
    public OptionalLong whole(Metric metric) {
        double value = read(metric);
        return Double.isNaN(value) ? OptionalLong.empty() : OptionalLong.of(Math.round(value));
    }

    /** A size in bytes, rounded; empty where it is absent. */
    public Optional<DataSize> size(Metric metric) {
        double value = read(metric);
        return Double.isNaN(value) ? Optional.empty() : Optional.of(DataSize.ofBytes(Math.round(value)));
    }

    /** Why the figure is absent; empty where it has a value. */
    public Optional<String> reason(Metric metric) {
        return Optional.ofNullable(reasons[index(metric)]);
    }

    /** Where the {@link Aggregation#AT_PEAK} figures were read; empty for a raw reading or without any. */
    public Optional<AtPeak> atPeak() {
        return atPeak;
    }

    /** These figures with where the at-peak ones were read. */
    public SourcedFigures withAtPeak(AtPeak where) {
        return new SourcedFigures(values, reasons, Optional.of(where));
    }

    private static int index(Metric metric) {
        return metric.sourceIndex().orElseThrow(() -> new IllegalArgumentException(metric.key() + " has no source"));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SourcedFigures that && Arrays.equals(values, that.values)
                && Arrays.equals(reasons, that.reasons) && atPeak.equals(that.atPeak);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(values), Arrays.hashCode(reasons), atPeak);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("SourcedFigures[");
        List<Metric> sourced = Metric.sourced();
        for (int i = 0; i < sourced.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(sourced.get(i).key()).append('=')
                    .append(reasons[i] == null ? String.valueOf(values[i]) : "absent");
        }
        return text.append(atPeak.map(p -> ", atPeak=" + p).orElse("")).append(']').toString();
    }

    /**
     * Where the at-peak figures were read: the working set of that reading and when in the window it was taken,
     * which a report prints beside them because it can be a little below the peak (see {@link Aggregation#AT_PEAK}).
     *
     * @param offset when in the window, from its start
     * @param workingSetBytes the working set of that reading
     */
    public record AtPeak(Duration offset, long workingSetBytes) {
        public AtPeak {
            Objects.requireNonNull(offset, "offset");
        }
    }

    /** Collects the figures; each must be set or declared unavailable before {@link #build()}. */
    public static final class Builder {

        private final double[] values = new double[Metric.sourced().size()];
        private final String[] reasons = new String[values.length];
        private final boolean[] given = new boolean[values.length];

        private Builder() {
            Arrays.fill(values, Double.NaN);
        }

        public Builder set(Metric metric, double value) {
            int i = index(metric);
            values[i] = value;
            reasons[i] = Double.isNaN(value) ? "not known" : null;
            given[i] = true;
            return this;
        }

        public Builder unavailable(Metric metric, String reason) {
            int i = index(metric);
            values[i] = Double.NaN;
            reasons[i] = Objects.requireNonNull(reason, "reason");
            given[i] = true;
            return this;
        }

        /** The figures; throws where one was neither set nor declared unavailable. */
        public SourcedFigures build() {
            for (int i = 0; i < given.length; i++) {
                if (!given[i]) {
                    throw new IllegalStateException(Metric.sourced().get(i).key() + " was neither read nor declared "
                            + "unavailable: a figure left unset would read as an exact 0");
                }
            }
            return new SourcedFigures(values.clone(), reasons.clone(), Optional.empty());
        }
    }
}
