package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.regression.testbed.Testbed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apiguardian.api.API;

/**
 * The last {@link #keep()} runs per {@link HistoryKey} and testbed, oldest first. Immutable; {@link #withRun} and
 * {@link #merge} return new histories.
 *
 * <p>Merging is a union: keys of either side are kept, the runs of a key are joined by run id (a run both sides hold
 * is kept once) and trimmed to the newest {@code keep}. So shards of one CI run, which all start from the same
 * committed history and each add the run's values for their own tests, merge into the history one runner would have
 * written.
 *
 * <p>Beside the runs it holds the {@link Testbed}s they ran on and the {@link Build}s they belong to (commit and
 * branch), each kept while a kept run refers to it.
 */
@API(status = INTERNAL, since = "0.1")
public final class History {

    static final Comparator<HistoryRun> CHRONOLOGICAL = Comparator.comparing(HistoryRun::at)
            .thenComparing(HistoryRun::id);

    private final int keep;
    private final SortedMap<HistoryKey, List<HistoryRun>> runs;
    private final SortedMap<String, Testbed> testbeds;
    private final SortedMap<String, Build> builds;

    /** A history of runs with no recorded testbed or build details. */
    public History(int keep, Map<HistoryKey, List<HistoryRun>> runs) {
        this(keep, runs, Map.of(), Map.of());
    }

    /**
     * @param testbeds the testbeds runs refer to, by id; those no kept run refers to are dropped
     * @param builds the builds runs belong to, by id; those no kept run belongs to are dropped
     */
    public History(int keep, Map<HistoryKey, List<HistoryRun>> runs, Map<String, Testbed> testbeds,
            Map<String, Build> builds) {
        if (keep < 1) {
            throw new IllegalArgumentException("a history keeps at least one run: " + keep);
        }
        this.keep = keep;
        // A map already in key order is copied in linear time, and each list replaced in place: a history of a
        // 10,000-test run holds some 10^5 keys, and inserting them one by one was most of building it.
        TreeMap<HistoryKey, List<HistoryRun>> copy = runs instanceof SortedMap<HistoryKey, List<HistoryRun>> sorted
                && sorted.comparator() == null ? new TreeMap<>(sorted) : new TreeMap<>(runs);
        copy.replaceAll((key, list) -> newest(list, keep));
        this.runs = Collections.unmodifiableSortedMap(copy);
        Set<String> testbedIds = new HashSet<>();
        Set<String> buildIds = new HashSet<>();
        copy.values().forEach(list -> list.forEach(run -> {
            testbedIds.add(run.testbed());
            buildIds.add(run.id());
        }));
        TreeMap<String, Testbed> keptTestbeds = new TreeMap<>(testbeds);
        keptTestbeds.keySet().retainAll(testbedIds);
        this.testbeds = Collections.unmodifiableSortedMap(keptTestbeds);
        TreeMap<String, Build> keptBuilds = new TreeMap<>(builds);
        keptBuilds.keySet().retainAll(buildIds);
        // a build known only by its id and start says nothing its runs do not: kept as they would read it back
        keptBuilds.values().removeIf(build -> build.commit().isEmpty() && build.branch().isEmpty());
        this.builds = Collections.unmodifiableSortedMap(keptBuilds);
    }

    public static History empty(int keep) {
        return new History(keep, Map.of());
    }

    /** How many runs are kept per key and testbed. */
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

    /** The kept runs of {@code key} on {@code testbed}, oldest first. */
    public List<HistoryRun> runs(HistoryKey key, String testbed) {
        return runs(key).stream().filter(run -> run.testbed().equals(testbed)).toList();
    }

    /** The testbeds the kept runs ran on, by id (those written before testbeds were recorded have none). */
    public SortedMap<String, Testbed> testbeds() {
        return testbeds;
    }

    /** The testbed of {@code id}: a recorded one, or {@link Testbed#unrecorded()}. */
    public Testbed testbed(String id) {
        return Optional.ofNullable(testbeds.get(id)).orElseGet(Testbed::unrecorded);
    }

    /** The builds the kept runs belong to, by id, with their commit and branch where known. */
    public SortedMap<String, Build> builds() {
        return builds;
    }

    /** The build of run {@code id}: as recorded, or known only by the run's id and start. */
    public Build build(HistoryRun run) {
        return Optional.ofNullable(builds.get(run.id())).orElseGet(() -> Build.of(run.id(), run.at()));
    }

    /** Every measurement of {@code key}, of all kept runs. */
    public List<Double> values(HistoryKey key) {
        List<Double> values = new ArrayList<>();
        runs(key).forEach(run -> values.addAll(run.values()));
        return values;
    }

    /**
     * The runs {@code key} would keep on {@code run}'s testbed with {@code run} added (a run of the same id replaced),
     * oldest first: what {@link #withRun} gives for one key, without copying the rest.
     */
    public List<HistoryRun> runsWith(HistoryKey key, HistoryRun run) {
        List<HistoryRun> list = new ArrayList<>(runs(key));
        list.removeIf(r -> r.id().equals(run.id()));
        list.add(run);
        return newest(list, keep).stream().filter(r -> r.testbed().equals(run.testbed())).toList();
    }

    /**
     * The newest {@code keep} runs of each testbed, oldest first: a fleet's runners take turns, and a history that
     * kept the newest runs of all testbeds together would hold few of each.
     */
    private static List<HistoryRun> newest(List<HistoryRun> runs, int keep) {
        List<HistoryRun> chronological = new ArrayList<>(runs);
        chronological.sort(CHRONOLOGICAL);
        java.util.Map<String, Integer> left = new java.util.HashMap<>();
        List<HistoryRun> kept = new ArrayList<>();
        for (int i = chronological.size() - 1; i >= 0; i--) {
            HistoryRun run = chronological.get(i);
            if (left.merge(run.testbed(), 1, Integer::sum) <= keep) {
                kept.add(run);
            }
        }
        Collections.reverse(kept);
        return List.copyOf(kept);
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
    public History withRun(String runId, Instant at, Map<HistoryKey, List<Double>> measurements) {
        return withRun(Build.of(runId, at), measurements, Map.of());
    }

    /**
     * This history with one build's measurements added, a run with the same id replaced.
     *
     * @param testbeds the testbed of each key's measurements; a key without one ran on no recorded testbed
     */
    public History withRun(Build build, Map<HistoryKey, List<Double>> measurements, Map<HistoryKey, Testbed> testbeds) {
        Map<HistoryKey, List<HistoryRun>> next = new TreeMap<>(runs);
        Map<String, Testbed> nextTestbeds = new TreeMap<>(this.testbeds);
        measurements.forEach((key, values) -> {
            Testbed testbed = testbeds.getOrDefault(key, Testbed.unrecorded());
            if (testbed.isRecorded()) {
                nextTestbeds.put(testbed.id(), testbed);
            }
            List<HistoryRun> list = new ArrayList<>(runs(key));
            list.removeIf(run -> run.id().equals(build.id()));
            list.add(new HistoryRun(build.id(), build.at(), testbed.id(), values));
            next.put(key, list);
        });
        Map<String, Build> nextBuilds = new TreeMap<>(builds);
        nextBuilds.put(build.id(), build);
        return new History(keep, next, nextTestbeds, nextBuilds);
    }

    /** The same runs, keeping at most {@code keep} per key. */
    public History keeping(int keep) {
        return new History(keep, runs, testbeds, builds);
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
        Map<String, Testbed> nextTestbeds = new TreeMap<>(other.testbeds);
        nextTestbeds.putAll(testbeds);
        Map<String, Build> nextBuilds = new TreeMap<>(other.builds);
        nextBuilds.putAll(builds);
        return new History(Math.max(keep, other.keep), next, nextTestbeds, nextBuilds);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof History other && other.keep == keep && other.runs.equals(runs)
                && other.testbeds.equals(testbeds) && other.builds.equals(builds);
    }

    @Override
    public int hashCode() {
        return runs.hashCode() * 31 + keep;
    }
}
