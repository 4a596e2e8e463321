package io.vitals.internal.report;

import io.vitals.internal.report.json.IndexReader;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.report.run.RunLedger;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The tests the other JVMs of a run (forks) finished, read from their parts, and merged with this JVM's. */
final class OtherJvms {

    private OtherJvms() {
    }

    /**
     * The tests the other JVMs of this run finished so far, read from their parts; a part that cannot be read is
     * named in a warning, never dropped in silence.
     */
    static List<RunReport.Entry> entries(RunLedger ledger, Path reportDir, Consumer<String> warnings) {
        List<Path> parts = ledger.otherParts();
        if (parts.isEmpty()) {
            return List.of(); // a JVM alone in its run: its reader would load Jackson's databind for nothing
        }
        List<RunReport.Entry> others = new ArrayList<>();
        IndexReader reader = new IndexReader(new ObjectMapper());
        for (Path part : parts) {
            try {
                reader.readAvailable(part, reportDir, warnings).tests().forEach(test -> others.add(test.entry()));
            } catch (IOException | RuntimeException e) {
                warnings.accept("Cannot read another JVM's part of this run, " + part + " (" + e.getMessage()
                        + "); its tests are missing from the run-wide reports");
            }
        }
        return others;
    }

    /**
     * This JUnit launcher session's tests and those of the other launcher sessions of its run, in the order they
     * finished. A test run twice (Surefire's {@code rerunFailingTestsCount} reruns it in a second launcher session)
     * is kept once, as its last attempt ended, as Surefire's XML keeps it: the figures and outcome of that attempt.
     */
    static List<RunReport.Entry> withOwn(List<RunReport.Entry> others, Collection<RunReport.Entry> own) {
        Map<String, RunReport.Entry> last = new LinkedHashMap<>();
        for (RunReport.Entry entry : others) {
            last.merge(entry.result().uniqueId(), entry, OtherJvms::later);
        }
        own.forEach(entry -> last.merge(entry.result().uniqueId(), entry, OtherJvms::later));
        List<RunReport.Entry> ordered = new ArrayList<>(last.values());
        ordered.sort(Comparator.comparing(OtherJvms::endedAt));
        return ordered;
    }

    private static Instant endedAt(RunReport.Entry entry) {
        return entry.result().startedAt().plus(entry.result().duration());
    }

    private static RunReport.Entry later(RunReport.Entry a, RunReport.Entry b) {
        return endedAt(b).isBefore(endedAt(a)) ? a : b;
    }
}
