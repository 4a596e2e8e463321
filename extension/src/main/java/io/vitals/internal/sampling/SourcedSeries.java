package io.vitals.internal.sampling;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.SourcedFigures;
import io.vitals.internal.metric.SourcedFigures.AtPeak;
import io.vitals.internal.probe.RawReading;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The fresh readings of the sourced figures in one window (a fast read carries the last full read's over, and is
 * not kept again), and how each figure's {@link io.vitals.internal.metric.Aggregation} turns them into the window's
 * or a phase's figure. Full reads come once a second and at each new high of the working set, so an hour-long test
 * keeps a few thousand entries; past {@link #MAX_ENTRIES} every other one is dropped, never the highest. Not
 * thread-safe: its window synchronises.
 */
final class SourcedSeries {

    static final int MAX_ENTRIES = 20_000;

    private record Entry(Duration offset, long workingSet, SourcedFigures figures) {
    }

    private List<Entry> entries = new ArrayList<>();
    private SourcedFigures lastSeen;

    SourcedSeries(RawReading start) {
        add(Duration.ZERO, start);
    }

    void add(Duration offset, RawReading reading) {
        if (reading.sourced() == lastSeen) {
            return;
        }
        lastSeen = reading.sourced();
        if (entries.size() == MAX_ENTRIES) {
            thin();
        }
        entries.add(new Entry(offset, reading.memory().workingSetBytes(), reading.sourced()));
    }

    /** The figures between {@code from} and {@code to}, which lie {@code fromOffset} and {@code toOffset} in. */
    SourcedFigures aggregate(RawReading from, RawReading to, Duration fromOffset, Duration toOffset) {
        List<Entry> inside = entries.stream()
                .filter(e -> e.offset().compareTo(fromOffset) >= 0 && e.offset().compareTo(toOffset) <= 0).toList();
        Optional<Entry> atPeak = inside.stream().reduce((a, b) -> b.workingSet() > a.workingSet() ? b : a);
        SourcedFigures.Builder figures = SourcedFigures.builder();
        for (Metric metric : Metric.sourced()) {
            switch (metric.source().orElseThrow().aggregation()) {
                case DELTA -> delta(figures, metric, from.sourced(), to.sourced());
                case LAST -> copy(figures, metric, to.sourced());
                case AT_PEAK -> copy(figures, metric, atPeak.map(Entry::figures).orElse(to.sourced()));
                case MAX -> over(figures, metric, inside, true, to.sourced());
                case MEAN -> over(figures, metric, inside, false, to.sourced());
            }
        }
        SourcedFigures result = figures.build();
        return atPeak.map(e -> result.withAtPeak(new AtPeak(e.offset().minus(fromOffset), e.workingSet())))
                .orElse(result);
    }

    private static void delta(SourcedFigures.Builder figures, Metric metric, SourcedFigures from,
            SourcedFigures to) {
        Optional<String> missing = from.reason(metric).or(() -> to.reason(metric));
        if (missing.isPresent()) {
            figures.unavailable(metric, missing.get());
        } else {
            // a counter only grows; a smaller end value means the cgroup was replaced, which a window cannot span
            figures.set(metric, Math.max(0, to.read(metric) - from.read(metric)));
        }
    }

    private static void copy(SourcedFigures.Builder figures, Metric metric, SourcedFigures reading) {
        Optional<String> missing = reading.reason(metric);
        if (missing.isPresent()) {
            figures.unavailable(metric, missing.get());
        } else {
            figures.set(metric, reading.read(metric));
        }
    }

    private static void over(SourcedFigures.Builder figures, Metric metric, List<Entry> inside, boolean max,
            SourcedFigures last) {
        OptionalDouble value = max
                ? inside.stream().mapToDouble(e -> e.figures().read(metric)).filter(v -> !Double.isNaN(v)).max()
                : inside.stream().mapToDouble(e -> e.figures().read(metric)).filter(v -> !Double.isNaN(v)).average();
        if (value.isPresent()) {
            figures.set(metric, value.getAsDouble());
        } else {
            figures.unavailable(metric, last.reason(metric).orElse("no reading of it in this window"));
        }
    }

    private void thin() {
        Entry highest = entries.stream().reduce((a, b) -> b.workingSet() > a.workingSet() ? b : a).orElseThrow();
        List<Entry> kept = new ArrayList<>(MAX_ENTRIES / 2 + 2);
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            if (i % 2 == 0 || entry == highest || i == entries.size() - 1) {
                kept.add(entry);
            }
        }
        entries = kept;
    }
}
