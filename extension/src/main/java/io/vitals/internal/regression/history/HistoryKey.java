package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Objects;

import org.apiguardian.api.API;

/**
 * What one line of the history holds: one metric of one container in one test, for the whole test or one phase.
 *
 * @param test the test's identity ({@link TestIdentity}): {@code com.example.TrainTests#train [1] 64}
 * @param container the container's name
 * @param phase the phase ({@code ResourceMonitor.mark}); empty for the whole test
 * @param metric the metric's key, e.g. {@code cpuTime}
 */
@API(status = INTERNAL, since = "0.1")
public record HistoryKey(String test, String container, String phase, String metric) implements Comparable<HistoryKey> {

    public HistoryKey {
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(metric, "metric");
    }

    public boolean isPhase() {
        return !phase.isEmpty();
    }

    /**
     * By test, container, phase, metric. Written out rather than a {@code Comparator.comparing} chain: a run's
     * history is a sorted map of some 10^5 keys, and the chain's four levels of lambdas were a tenth of the CPU of
     * writing a 10,000-test run's reports.
     */
    @Override
    public int compareTo(HistoryKey other) {
        int order = test.compareTo(other.test);
        if (order == 0) {
            order = container.compareTo(other.container);
        }
        if (order == 0) {
            order = phase.compareTo(other.phase);
        }
        return order != 0 ? order : metric.compareTo(other.metric);
    }

    /** For messages: {@code com.example.TrainTests#train / tf / phase evaluate / cpuTime}. */
    @Override
    public String toString() {
        return test + " / " + container + (isPhase() ? " / phase " + phase : "") + " / " + metric;
    }
}
