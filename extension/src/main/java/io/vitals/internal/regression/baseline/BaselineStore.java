package io.vitals.internal.regression.baseline;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.MeasureResources;
import io.vitals.internal.files.StoredFile;
import io.vitals.internal.result.TestResult;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Consumer;

import org.apiguardian.api.API;

/**
 * The configured baseline file of one run: what it held when the run began, and whether it may be replaced at the
 * end. A file that exists but cannot be read (cut short, not JSON, empty, another schema version, a newer one
 * included) is never replaced: this run alone would become the baseline, and every reviewed figure of the tests
 * it did not run would be lost. So the update is refused with the file, line and reason; in {@code fail} mode
 * every compared test fails with that reason too, so the build stops until someone repairs or restores the file,
 * and in {@code warn} mode the run goes on with warnings. A replacement keeps the file it replaces as
 * {@link StoredFile#previous}.
 */
@API(status = INTERNAL, since = "0.1")
public final class BaselineStore {

    private final Optional<Path> file;
    private final boolean update;
    private final boolean failMode;
    private final BaselineFile format;
    private final Baseline loaded;
    private final boolean found;
    private final Optional<String> problem;

    private BaselineStore(Optional<Path> file, boolean update, boolean failMode, BaselineFile format,
            Baseline loaded, boolean found, Optional<String> problem) {
        this.file = file;
        this.update = update;
        this.failMode = failMode;
        this.format = format;
        this.loaded = loaded;
        this.found = found;
        this.problem = problem;
    }

    /**
     * Reads the baseline {@code file}, if one is configured; says on {@code warnings} what went wrong.
     *
     * @param update whether this run is to be appended to it
     * @param failMode whether a regression (or a baseline that cannot be read) fails the test
     */
    public static BaselineStore load(Optional<Path> file, boolean update, boolean failMode,
            Consumer<String> warnings) {
        BaselineFile format = new BaselineFile();
        if (file.isEmpty()) {
            return new BaselineStore(file, update, failMode, format, Baseline.empty(), false, Optional.empty());
        }
        Path path = file.get();
        try {
            Baseline baseline = format.read(path);
            return new BaselineStore(file, update, failMode, format, baseline, true, Optional.empty());
        } catch (NoSuchFileException e) {
            if (!update) {
                warnings.accept("Baseline " + path + " does not exist; nothing is compared. Run with -D"
                        + MeasureResources.BASELINE_UPDATE_KEY + "=true to create it.");
            }
            return new BaselineStore(file, update, failMode, format, Baseline.empty(), false, Optional.empty());
        } catch (IOException e) {
            String problem = e instanceof BaselineException ? "Baseline " + e.getMessage()
                    : "Baseline " + path + " cannot be read: " + e;
            BaselineStore store = new BaselineStore(file, update, failMode, format, Baseline.empty(), false,
                    Optional.of(problem));
            warnings.accept(problem + ". Nothing is compared with it" + (update ? ", and it is not updated" : "")
                    + "; the file is left as it is. " + store.remedy());
            return store;
        }
    }

    /** The baseline as it was when the run began; empty when there is none or it cannot be read. */
    public Baseline baseline() {
        return loaded;
    }

    /** Whether a baseline was read. */
    public boolean found() {
        return found;
    }

    /** Why the file cannot be used, naming file, line (where there is one) and reason; empty when it can. */
    public Optional<String> problem() {
        return problem;
    }

    /**
     * Compares tests with the baseline: regressions fail a test in {@code fail} mode unless the baseline is being
     * updated; an unreadable baseline fails every compared test in {@code fail} mode, whether updating or not.
     */
    public BaselineComparator comparator(Tolerances tolerances) {
        if (problem.isPresent()) {
            return BaselineComparator.unusable(problem.get() + ". The file is left as it is. " + remedy(), failMode);
        }
        return new BaselineComparator(loaded, tolerances, failMode && !update);
    }

    /**
     * With {@code vitals.baseline.update}, writes the baseline with {@code results} added (keeping the last
     * {@code runs} values of each figure) over the file, keeping the one it replaces; unless the file could not be
     * read, which is then left exactly as it is.
     *
     * @param readAgain whether other JVMs of this run may have updated the file since this one read it: then it
     *     is read again (the caller holds the run's lock), so that each JVM appends its own tests once and none
     *     undoes another's
     * @return a warning when the update was refused or failed; empty when it was written or not asked for
     */
    public Optional<String> update(Collection<TestResult> results, int runs, boolean readAgain) {
        if (!update || file.isEmpty()) {
            return Optional.empty();
        }
        if (problem.isPresent()) {
            return Optional.of(problem.get() + ". The update with this run was refused and the file is left as it "
                    + "is. " + remedy());
        }
        Baseline current = loaded;
        if (readAgain) {
            try {
                current = format.read(file.get());
            } catch (NoSuchFileException e) {
                // no JVM of this run has written it yet
            } catch (IOException e) {
                return Optional.of("Baseline " + e.getMessage() + ": it was readable when this run began, so "
                        + "something else changed it meanwhile. The update with this run was refused and the file is "
                        + "left as it is. " + remedy());
            }
        }
        try {
            format.write(file.get(), current.withRun(results, runs));
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("Failed to update baseline " + file.get() + ": " + e);
        }
    }

    private String remedy() {
        return "Repair it, or restore it from version control or from " + StoredFile.previous(file.get())
                + " where that exists" + (failMode ? "; until then every compared test fails (-D"
                        + MeasureResources.BASELINE_MODE_KEY + "=warn runs on with warnings)" : "") + ".";
    }
}
