package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apiguardian.api.API;

/**
 * The last {@link #keep()} runs per {@link HistoryKey}, oldest first. Immutable; {@link #withRun} and
 * {@link #merge} return new histories.
 *
 * <p>Merging is a union: keys of either side are kept, the runs of a key are joined by run id (a run both sides hold
 * is kept once) and trimmed to the newest {@code keep}. So shards of one CI run, which all start from the same
 * committed history and each add the run's values for their own tests, merge into the history one runner would have
 * written.
 */
@API(status = INTERNAL, since = "0.1")
public final class History {

    static final Comparator<HistoryRun> CHRONOLOGICAL = Comparator.comparing(HistoryRun::at)
            .thenComparing(HistoryRun::id);

    private final int keep;
    private final SortedMap<HistoryKey, List<HistoryRun>> runs;

    public History(int keep, Map<HistoryKey, List<HistoryRun>> runs) {
        if (keep < 1) {
            throw new IllegalArgumentException("a history keeps at least one run: " + keep);
        }
        this.keep = keep;
        // A map already in key order is copied in linear time, and each list replaced in place: a history of a
        // 10,000-test run holds some 10^5 keys, and inserting them one by one was most of building it.
        TreeMap<HistoryKey, List<HistoryRun>> copy = runs instanceof SortedMap<HistoryKey, List<HistoryRun>> sorted
                && sorted.comparator() == null ? new TreeMap<>(sorted) : new TreeMap<>(runs);
        copy.replaceAll((key, list) -> {
            List<HistoryRun> chronological = new ArrayList<>(list);
            chronological.sort(CHRONOLOGICAL);
            return List.copyOf(chronological.subList(Math.max(0, chronological.size() - keep),
                    chronological.size()));
        });
        this.runs = Collections.unmodifiableSortedMap(copy);
    }

    public static History empty(int keep) {
        return new History(keep, Map.of());
    }

    /** How many runs are kept per key. */
    public int keep() {
        return keep;
    }

    /** Every key with its runs, oldest first; sorted by key. */
    public SortedMap<HistoryKey, List<HistoryRun>> runs() {
        return runs;
    }

    public List<HistoryRun> runs(HistoryKey key) {
        return runs.getOrDefault(key, List.of());
    }

    /** Every measurement of {@code key}, of all kept runs. */
    public List<Double> values(HistoryKey key) {
        List<Double> values = new ArrayList<>();
        runs(key).forEach(run -> values.addAll(run.values()));
        return values;
    }

    /**
     * The measurements {@code key} would hold with one more run added: what {@link #withRun} gives for one key,
     * without copying the rest.
     */
    public List<Double> valuesWith(HistoryKey key, String runId, java.time.Instant at, List<Double> now) {
        List<HistoryRun> list = new ArrayList<>(runs(key));
        list.removeIf(run -> run.id().equals(runId));
        list.add(new HistoryRun(runId, at, now));
        list.sort(CHRONOLOGICAL);
        List<Double> values = new ArrayList<>();
        list.subList(Math.max(0, list.size() - keep), list.size()).forEach(run -> values.addAll(run.values()));
        return values;
    }

    /** Whether any key belongs to {@code test}. */
    public boolean hasTest(String test) {
        return runs.keySet().stream().anyMatch(k -> k.test().equals(test));
    }

    /** Whether any key belongs to {@code container} of {@code test}. */
    public boolean hasContainer(String test, String container) {
        return runs.keySet().stream().anyMatch(k -> k.test().equals(test) && k.container().equals(container));
    }

    /** This history with one run's measurements added, a run with the same id replaced. */
    public History withRun(String runId, java.time.Instant at, Map<HistoryKey, List<Double>> measurements) {
        Map<HistoryKey, List<HistoryRun>> next = new TreeMap<>(runs);
        measurements.forEach((key, values) -> {
            List<HistoryRun> list = new ArrayList<>(runs(key));
            list.removeIf(run -> run.id().equals(runId));
            list.add(new HistoryRun(runId, at, values));
            next.put(key, list);
        });
        return new History(keep, next);
    }

    /** The same runs, keeping at most {@code keep} per key. */
    public History keeping(int keep) {
        return new History(keep, runs);
    }

    /**
     * The union of both histories, keeping the larger {@code keep} of the two.
     *
     * @throws IllegalStateException naming the key and run when both hold a run with the same id but different
     *     values: they cannot be from the same run, so one of them is mislabelled
     */
    public History merge(History other) {
        Map<HistoryKey, List<HistoryRun>> next = new TreeMap<>(runs);
        other.runs.forEach((key, theirs) -> {
            List<HistoryRun> list = new ArrayList<>(runs(key));
            for (HistoryRun run : theirs) {
                HistoryRun same = list.stream().filter(r -> r.id().equals(run.id())).findFirst().orElse(null);
                if (same == null) {
                    list.add(run);
                } else if (!same.values().equals(run.values())) {
                    throw new IllegalStateException("run '" + run.id() + "' of " + key + " has the values "
                            + same.values() + " in one history and " + run.values() + " in the other; a run id "
                            + "must name one run (set vitals.runId to a value unique per CI run, e.g. "
                            + "${{ github.run_id }}-${{ github.run_attempt }})");
                }
            }
            next.put(key, list);
        });
        return new History(Math.max(keep, other.keep), next);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof History && ((History) obj).keep == keep && ((History) obj).runs.equals(runs);
    }

    @Override
    public int hashCode() {
        return runs.hashCode() * 31 + keep;
    }
}
