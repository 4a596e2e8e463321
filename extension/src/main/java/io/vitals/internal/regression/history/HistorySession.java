package io.vitals.internal.regression.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.internal.files.StoredFile;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.regression.baseline.Tolerances;
import io.vitals.internal.regression.stats.ChangeDetector;
import io.vitals.internal.regression.testbed.MachineFacts;
import io.vitals.internal.regression.testbed.Testbed;
import io.vitals.internal.regression.testbed.Testbeds;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apiguardian.api.API;

/**
 * The run history's part of a report session: loads the history once, compares each test with it, collects this
 * run's measurements, and at the end writes {@value #FILE} into the report directory (the history with this run
 * added, which the merge command reads) and, with {@code vitals.history.update}, the configured history file.
 *
 * <p>A history that cannot be read (a broken line, bytes that are not UTF-8, another schema version, a newer one
 * included) is never written over, also not with {@code vitals.history.update}: the session warns (naming file,
 * line and rule), compares nothing, and leaves the file for a person to fix; in {@code fail} mode every compared
 * test fails with that reason, so the build stops rather than passing unchecked. A history it does replace is kept
 * as {@code <name>.previous}. Not thread-safe; the report session guards it.
 */
@API(status = INTERNAL, since = "0.1")
public final class HistorySession {

    /** The history with this run added, in the report directory. */
    public static final String FILE = "vitals-history.jsonl";

    private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final HistorySettings settings;
    private final HistoryFile file = new HistoryFile();
    private final History loaded;
    private final Optional<String> problem;
    private final boolean failMode;
    private final HistoryComparator comparator;
    private final Measurements measurements = new Measurements();
    private final String runId;
    private final Instant startedAt;
    private final Build build;
    private final Testbeds testbeds;
    private final Map<HistoryKey, Testbed> testbedOfKey = new TreeMap<>();
    private Optional<String> rereadProblem = Optional.empty();

    /** A session learning the machine's facts from the engine Testcontainers reaches, the build's from the CI. */
    public HistorySession(HistorySettings settings, Tolerances tolerances, boolean failOnRegression, Instant now,
            Consumer<String> warnings) {
        this(settings, tolerances, failOnRegression, now, warnings, MachineFacts.lazily(Path.of("/proc")),
                System.getenv());
    }

    /**
     * @param machine the facts of the machine that runs the containers, asked for once, on the first measured test
     * @param environment where the CI's commit and branch variables are looked up
     */
    public HistorySession(HistorySettings settings, Tolerances tolerances, boolean failOnRegression, Instant now,
            Consumer<String> warnings, Supplier<MachineFacts> machine, Map<String, String> environment) {
        this.settings = settings;
        this.startedAt = now;
        this.runId = settings.runId().orElseGet(() -> RUN_ID.format(now));
        this.build = Build.current(runId, now, settings, environment);
        this.testbeds = new Testbeds(machine, settings.testbed(), settings.testbedIgnore());
        History history = History.empty(settings.keep());
        String trouble = null;
        if (settings.file().isPresent()) {
            Path path = settings.file().get();
            try {
                history = file.read(path).history().keeping(settings.keep());
            } catch (NoSuchFileException e) {
                if (!settings.update()) {
                    warnings.accept("History " + path + " does not exist; nothing is compared. Run with -D"
                            + MeasureResources.HISTORY_UPDATE_KEY + "=true to create it.");
                }
            } catch (IOException e) {
                trouble = e instanceof HistoryException ? "History " + e.getMessage()
                        : "History " + path + " cannot be read: " + e;
                warnings.accept(trouble + "; nothing is compared and the file is not updated. " + remedy(path,
                        failOnRegression));
            }
        }
        this.loaded = history;
        this.problem = Optional.ofNullable(trouble);
        this.failMode = failOnRegression;
        this.comparator = new HistoryComparator(history, tolerances, new ChangeDetector(settings.alpha()),
                failOnRegression && !settings.update());
    }

    public boolean configured() {
        return settings.file().isPresent();
    }

    /** Why the history could not be used, naming file, line and rule; empty when it could. */
    public Optional<String> problem() {
        return problem;
    }

    public History loaded() {
        return loaded;
    }

    public String runId() {
        return runId;
    }

    public RegressionVerdict compare(TestResult result) {
        if (problem.isPresent()) {
            return RegressionVerdict.unusable(TestIdentity.of(result).key(), problem.get() + "; the file is left as "
                    + "it is. " + remedy(settings.file().get(), failMode), failMode, result.containers().size() > 1);
        }
        return comparator.compare(result, measurements, this::testbedOf, build);
    }

    /** This build: its id, start, and commit and branch where known. */
    public Build build() {
        return build;
    }

    private Testbed testbedOf(ContainerResult container) {
        return testbeds.of(container);
    }

    private void noteTestbeds(TestResult result, Map<HistoryKey, Testbed> into) {
        if (!configured()) {
            return; // no history: no engine round trip for facts nobody keeps
        }
        Map<String, Testbed> byContainer = new TreeMap<>();
        result.containers().forEach(c -> byContainer.put(c.name(), testbedOf(c)));
        Measurements.of(result).keySet().forEach(key -> into.put(key, byContainer.get(key.container())));
    }

    private static String remedy(Path file, boolean failMode) {
        return "Repair it, or restore it from version control or from " + StoredFile.previous(file)
                + " where that exists" + (failMode ? "; until then every compared test fails (-D"
                        + MeasureResources.BASELINE_MODE_KEY + "=warn runs on with warnings)" : "") + ".";
    }

    public void record(TestResult result) {
        measurements.add(result);
        noteTestbeds(result, testbedOfKey);
    }

    /** The history with this run's measurements so far added. */
    public History withThisRun() {
        return loaded.withRun(build, measurements.all(), testbedOfKey);
    }

    /**
     * The history with the measurements of this run so far added, those that other JVMs of the run (forks) took,
     * {@code others}, included. Another JVM of the run may have updated the file since this one read it, so with
     * updates on it is read again (the caller holds the run's lock); as every JVM of a run writes under the same
     * run id, adding a test's figures again replaces them rather than adding a run.
     */
    public History withThisRun(List<TestResult> others) {
        if (others.isEmpty()) {
            return withThisRun();
        }
        Measurements all = new Measurements();
        Map<HistoryKey, Testbed> keyTestbeds = new TreeMap<>(testbedOfKey);
        others.forEach(all::add);
        others.forEach(result -> noteTestbeds(result, keyTestbeds));
        History base = loaded;
        if (settings.update() && problem.isEmpty() && settings.file().isPresent()) {
            try {
                base = file.read(settings.file().get()).history().keeping(settings.keep());
            } catch (NoSuchFileException e) {
                // not written by any JVM of this run yet
            } catch (IOException e) {
                rereadProblem = Optional.of("History " + e.getMessage());
            }
        }
        Map<HistoryKey, List<Double>> values = all.all();
        measurements.all().forEach((key, own) -> values.merge(key, own, (a, b) -> {
            List<Double> both = new ArrayList<>(a);
            both.addAll(b);
            return both;
        }));
        return base.withRun(build, values, keyTestbeds);
    }

    /** What {@link #runsWith} hands over per figure: the testbed of the figure and its builds there. */
    @FunctionalInterface
    public interface FigureRuns {
        void accept(HistoryKey key, Testbed testbed, List<HistoryRun> runs);
    }

    /**
     * Hands {@code each} the builds of every figure of {@code result} on its testbed in the history, with this build
     * (its repetitions so far and {@code result}) added; nothing when no history is configured. Cheap, and copies,
     * so that what is judged from them can run later and elsewhere (the report thread) with the same outcome while
     * the run goes on.
     */
    public void runsWith(TestResult result, FigureRuns each) {
        if (!configured()) {
            return;
        }
        Map<HistoryKey, Testbed> keyTestbeds = new TreeMap<>();
        noteTestbeds(result, keyTestbeds);
        Measurements.of(result).forEach((key, value) -> {
            List<Double> now = new ArrayList<>(measurements.values(key));
            now.add(value);
            Testbed testbed = keyTestbeds.get(key);
            each.accept(key, testbed, loaded.runsWith(key, new HistoryRun(runId, startedAt, testbed.id(), now)));
        });
    }

    /**
     * The content of {@value #FILE} in the report directory: {@code all}, the history with this run added
     * ({@link #withThisRun()}); empty when the history could not be read, so nothing suggests it was.
     */
    public Optional<String> reportCopy(History all) {
        return problem.isPresent() ? Optional.empty() : Optional.of(file.toText(all));
    }

    /**
     * With {@code vitals.history.update}, writes {@code all}, the history with this run ({@link #withThisRun()}),
     * over the configured file, keeping the one it replaces as {@code <name>.previous}; unless the loaded one was
     * unreadable, which is then left exactly as it is. Returns the refusal or the failure, if any.
     */
    public Optional<String> update(History all) {
        if (!settings.update() || settings.file().isEmpty()) {
            return Optional.empty();
        }
        if (problem.isPresent()) {
            return Optional.of(problem.get() + "; the update with this run was refused and the file is left as it "
                    + "is. " + remedy(settings.file().get(), failMode));
        }
        if (rereadProblem.isPresent()) {
            return Optional.of(rereadProblem.get() + "; it was readable when this run began, so something else "
                    + "changed it meanwhile: the update with this run was refused and the file is left as it is. "
                    + remedy(settings.file().get(), failMode));
        }
        try {
            file.write(settings.file().get(), all);
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("Failed to update history " + settings.file().get() + ": " + e);
        }
    }
}
