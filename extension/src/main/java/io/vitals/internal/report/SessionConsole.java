package io.vitals.internal.report;

import io.vitals.internal.report.console.ConsoleJsonLine;
import io.vitals.internal.report.console.ConsoleTable;
import io.vitals.internal.report.console.VerdictTable;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.TestResult;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonFactory;

/**
 * What a session prints while the tests run: in {@code json} mode a line per test, in {@code table} mode a table
 * per class, verdict first, with each test's baseline findings ({@code full}: the table with every figure); nothing
 * in {@code off} mode.
 */
final class SessionConsole {

    private final ReportSettings.ConsoleMode mode;
    private final Consumer<String> console;
    private final ConsoleJsonLine jsonLine;
    private final BooleanSupplier showsVerdicts;

    /**
     * @param console where the lines go (each ends with a line break)
     * @param showsVerdicts whether there was anything readable to compare with, so that the verdicts are shown
     */
    SessionConsole(ReportSettings.ConsoleMode mode, Consumer<String> console, JsonFactory jsonFactory,
            BooleanSupplier showsVerdicts) {
        this.mode = mode;
        this.console = console;
        this.jsonLine = new ConsoleJsonLine(jsonFactory);
        this.showsVerdicts = showsVerdicts;
    }

    /** Prints the test's line in {@code json} mode; called as each test finishes, so lines keep their order. */
    void testFinished(RunReport.Entry entry) {
        if (mode == ReportSettings.ConsoleMode.JSON) {
            console.accept(jsonLine.render(entry) + "\n");
        }
    }

    /** Prints the class's table in {@code table} or {@code full} mode, with its tests' baseline findings. */
    void classFinished(String className, List<RunReport.Entry> ofClass) {
        boolean full = mode == ReportSettings.ConsoleMode.FULL;
        if (mode != ReportSettings.ConsoleMode.TABLE && !full || ofClass.isEmpty()) {
            return;
        }
        List<TestResult> results = ofClass.stream().map(RunReport.Entry::result).toList();
        StringBuilder out = new StringBuilder("\nVitals: ").append(className).append('\n');
        out.append(full ? new ConsoleTable().render(results) : new VerdictTable().render(results));
        if (showsVerdicts.getAsBoolean()) {
            for (RunReport.Entry entry : ofClass) {
                entry.verdict().lines().forEach(line -> out.append("  ").append(ReportNames.label(entry.result()))
                        .append(": ").append(line).append('\n'));
            }
        }
        console.accept(out.toString());
    }
}
