package io.vitals.internal.report.history;

import java.util.Comparator;
import java.util.Objects;

/**
 * What one line of the history holds: one metric of one container in one test, for the whole test or one phase.
 *
 * @param test the test's identity ({@link TestIdentity}): {@code com.example.TrainTests#train [1] 64}
 * @param container the container's name
 * @param phase the phase ({@code ResourceMonitor.mark}); empty for the whole test
 * @param metric the metric's key, e.g. {@code cpuTime}
 */
public record HistoryKey(String test, String container, String phase, String metric) implements Comparable<HistoryKey> {

    private static final Comparator<HistoryKey> ORDER = Comparator.comparing(HistoryKey::test)
            .thenComparing(HistoryKey::container).thenComparing(HistoryKey::phase).thenComparing(HistoryKey::metric);

    public HistoryKey {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(metric, "metric");
    }

    public boolean isPhase() {
        return !phase.isEmpty();
    }

    @Override
    public int compareTo(HistoryKey other) {
        return ORDER.compare(this, other);
    }

    /** For messages: {@code com.example.TrainTests#train / tf / phase evaluate / cpuTime}. */
    @Override
    public String toString() {
        return test + " / " + container + (isPhase() ? " / phase " + phase : "") + " / " + metric;
    }
}
