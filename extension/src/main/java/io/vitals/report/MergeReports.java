package io.vitals.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.vitals.internal.report.ReportSettings;
import io.vitals.internal.report.prometheus.PrometheusSeries;
import io.vitals.internal.report.merge.ReportMerger;
import io.vitals.internal.settings.InvalidSettingException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Merges the report directories of several CI shards or Maven modules into one report:
 *
 * <pre>{@code
 * java -cp "$(cat cp.txt)" io.vitals.report.MergeReports --out target/vitals-merged \
 *     [--history vitals-history.jsonl] shard-1/target/vitals shard-2/target/vitals ...
 * }</pre>
 *
 * <p>Writes {@code vitals.json}, {@code index.html}, {@code summary.md}, {@code vitals.prom}, the per-test JSON files,
 * the suggested budgets and the merged {@code vitals-history.jsonl} into {@code --out}; with {@code --history}, also
 * the merged history to that file. Exit status 0 on success, 1 on bad input (the message names file, line and rule,
 * and nothing is written), 2 on a usage error. The system property {@code vitals.prometheus.series} chooses the
 * series of the merged {@code vitals.prom}, as in a run. See docs/ci.md.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class MergeReports {

    private MergeReports() {
    }

    /**
     * Runs the command and exits the JVM with its status.
     *
     * @param args the command line, as the class comment gives it
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * The command without exiting the JVM, for tests: returns the exit status.
     *
     * @param args the command line, as the class comment gives it
     * @param out where the summary of what was written goes
     * @param err where the usage and errors go
     * @return the exit status: 0, 1 on bad input, 2 on a usage error
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path target = null;
        Optional<Path> history = Optional.empty();
        List<Path> shards = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--out") || args[i].equals("--history")) && i + 1 < args.length) {
                if (args[i].equals("--out")) {
                    target = Path.of(args[++i]);
                } else {
                    history = Optional.of(Path.of(args[++i]));
                }
            } else if (args[i].startsWith("--")) {
                return usage(err, "unknown option " + args[i]);
            } else {
                shards.add(Path.of(args[i]));
            }
        }
        if (target == null || shards.isEmpty()) {
            return usage(err, target == null ? "--out is required" : "name at least one report directory");
        }
        PrometheusSeries series;
        try {
            series = ReportSettings.prometheusSeries(key -> Optional.ofNullable(System.getProperty(key)));
        } catch (InvalidSettingException e) {
            return usage(err, e.getMessage());
        }
        try {
            ReportMerger.Result result = new ReportMerger(series).merge(shards, target, history, Instant.now());
            out.println("Vitals: merged " + result.tests() + " tests of " + result.shards() + " report directories "
                    + "into " + target + (result.history().isPresent() ? ", with their history" : ""));
            return 0;
        } catch (IOException e) {
            err.println("Vitals: cannot merge: " + e.getMessage());
            err.println("Nothing was written.");
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("Vitals: " + problem);
        err.println("usage: MergeReports --out DIR [--history FILE] REPORT_DIR...");
        return 2;
    }
}
