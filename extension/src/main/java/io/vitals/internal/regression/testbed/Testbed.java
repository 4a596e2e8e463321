package io.vitals.internal.regression.testbed;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * What a build ran on, as far as a figure depends on it and the code does not: the testbed, in Bencher's sense. The
 * run history judges a figure against earlier builds of the same testbed only, since a 1-CPU runner, a slower CPU or
 * another kernel moves CPU time, and even peak memory and PIDs (TensorFlow sizes its thread pools from the CPUs it
 * sees), without any change to the code.
 *
 * <p>The {@link #id} is the user's name for it ({@code vitals.testbed}) or, by default, a digest of the fields that
 * identify it ({@link #identity}); a field the user folds ({@code vitals.testbed.ignore}) is still recorded, but no
 * longer tells testbeds apart.
 *
 * @param id what the history files runs under, e.g. {@code tb-3f9a0c1d} or {@code ci-large}
 * @param fields every fact recorded, by {@link Field} key; a fact that could not be learned is absent
 * @param identity the keys of the fields that make up {@code id} when no name was given
 */
@API(status = INTERNAL, since = "0.1")
public record Testbed(String id, SortedMap<String, String> fields, List<String> identity) {

    /** The testbed of runs written before Vitals recorded testbeds (history schema 1). */
    public static final String UNRECORDED = "unrecorded";

    /** The facts a testbed records, in the order reports list them. */
    public enum Field {
        /** The CPU model of the machine that runs the containers, where Vitals can read it (a local engine). */
        CPU_MODEL("cpuModel"),
        /** How many CPUs the container can run on: the engine's, narrowed by its --cpus and --cpuset-cpus. */
        CPUS("cpus"),
        /** The engine machine's memory, in GiB, rounded. */
        MEMORY("memory"),
        /** The engine machine's kernel release. */
        KERNEL("kernel"),
        /** The cgroup version the container's figures were read from. */
        CGROUP("cgroup"),
        /** The engine and its version, e.g. {@code docker 20.10.24}. */
        ENGINE("engine"),
        /** The probe that measured: host cgroups, the Vitals agent, or the Engine API. */
        PROBE("probe"),
        /** The container's memory, CPU and PID limits, e.g. {@code mem=2GiB cpus=2.0}. */
        LIMITS("limits");

        private final String key;

        Field(String key) {
            this.key = key;
        }

        /** The field's name in the history file and in {@code vitals.testbed.ignore}. */
        public String key() {
            return key;
        }
    }

    public Testbed {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a testbed needs a non-blank id");
        }
        fields = Collections.unmodifiableSortedMap(new TreeMap<>(fields));
        identity = List.copyOf(identity);
    }

    /**
     * The testbed of {@code fields}: named {@code name} when the user gave one, else a digest of every field but
     * those in {@code ignored}.
     */
    public static Testbed of(Map<String, String> fields, java.util.Optional<String> name, List<String> ignored) {
        List<String> identity = fields.keySet().stream().filter(k -> !ignored.contains(k)).sorted().toList();
        String id = name.orElseGet(() -> digest(fields, identity));
        return new Testbed(id, new TreeMap<>(fields), identity);
    }

    /** The testbed of a run from before testbeds were recorded: it matches no other. */
    public static Testbed unrecorded() {
        return new Testbed(UNRECORDED, new TreeMap<>(), List.of());
    }

    public boolean isRecorded() {
        return !UNRECORDED.equals(id);
    }

    /** "tb-3f9a0c1d (2 CPUs, kernel 6.1.0, cgroup v2, docker 24.0.7, host probe)": for reports. */
    public String label() {
        if (!isRecorded()) {
            return "no recorded testbed (written before Vitals recorded testbeds)";
        }
        String facts = List.of(Field.CPUS, Field.CPU_MODEL, Field.KERNEL, Field.CGROUP, Field.ENGINE, Field.PROBE)
                .stream().filter(f -> fields.containsKey(f.key()))
                .map(f -> f == Field.CPUS ? fields.get(f.key()) + " CPUs" : f == Field.KERNEL ? "kernel "
                        + fields.get(f.key()) : f == Field.CGROUP ? "cgroup " + fields.get(f.key()) : fields.get(f.key()))
                .collect(Collectors.joining(", "));
        return facts.isEmpty() ? id : id + " (" + facts + ")";
    }

    /** The fields in which {@code other} differs from this one, e.g. {@code cpus 2 → 1}; for "nearest" notes. */
    public List<String> differences(Testbed other) {
        TreeMap<String, String> keys = new TreeMap<>(fields);
        other.fields.forEach(keys::putIfAbsent);
        return keys.keySet().stream().filter(k -> !Objects.equals(fields.get(k), other.fields.get(k)))
                .map(k -> k + " " + other.fields.getOrDefault(k, "?") + " → " + fields.getOrDefault(k, "?"))
                .toList();
    }

    /** How many recorded facts both share: the "nearest" testbed shares the most. */
    public int sharedFacts(Testbed other) {
        return (int) fields.entrySet().stream().filter(e -> e.getValue().equals(other.fields.get(e.getKey())))
                .count();
    }

    private static String digest(Map<String, String> fields, List<String> identity) {
        StringBuilder canonical = new StringBuilder();
        identity.forEach(k -> canonical.append(k).append('=').append(fields.get(k)).append('\n'));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString()
                    .getBytes(StandardCharsets.UTF_8));
            return "tb-" + HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
