package io.vitals.internal.report.prometheus;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.PressureStall;
import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.RegressionFinding;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportNames;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apiguardian.api.API;

/**
 * Writes the run in the Prometheus text exposition format (version 0.0.4) for node-exporter's textfile collector.
 *
 * <p>Approach: metric by metric, so each gets its HELP and TYPE once, right before its samples, as the format
 * requires. Names use base units (bytes, seconds; CPU as a ratio where 1 is one core) and counters end in
 * {@code _total}. Labels are {@code class}, {@code test} (method and parameters) and {@code container}. Each
 * {@link Metric} brings its own family ({@link Metric#exported()}); the families after them are details no budget is
 * set on (limits, the CPU split, event counts, pressure) and the verdicts.
 *
 * <p>Which tests get those per-test series is the {@link PrometheusSeries} setting: every test, only the tests that
 * failed, breached a budget or regressed, or none. Unless every test has them, the per-class families of
 * {@link ClassAggregates} follow, one series per class and container.
 */
@API(status = INTERNAL, since = "0.1")
public final class PrometheusWriter {

    private record Sample(String labels, double value) {
    }

    private record Family(String name, String type, String help,
            BiConsumer<RunReport.Entry, List<Sample>> samples) {
    }

    private final List<Family> families = Stream.of(
            Stream.of(
                    test("vitals_test_duration_seconds", "gauge", "Wall time of the test.",
                            t -> Figures.seconds(t.duration())),
                    test("vitals_test_failed", "gauge", "1 if the test failed or was aborted, else 0.",
                            t -> t.outcome() == TestResult.Outcome.FAILED || t.outcome() == TestResult.Outcome.ABORTED
                                    ? 1 : 0),
                    // only skipped tests have a sample: a passing run's file stays as it was
                    new Family("vitals_test_skipped", "gauge", "1 if the test was disabled and did not run.",
                            (entry, out) -> {
                                if (entry.result().outcome() == TestResult.Outcome.SKIPPED) {
                                    out.add(new Sample(testLabels(entry.result()), 1));
                                }
                            })),
            Metric.all().stream().map(PrometheusWriter::figure),
            Stream.of(
                    container("vitals_container_memory_high_water_mark_bytes", "gauge",
                            "Kernel high-water mark of charged memory during the test, where the host keeps one.",
                            u -> u.peakMemoryHighWaterMark().map(s -> (double) s.toBytes())),
                    container("vitals_container_memory_limit_bytes", "gauge", "Memory limit of the container.",
                            u -> u.memoryLimit().map(s -> (double) s.toBytes())),
                    container("vitals_container_memory_usage_bytes", "gauge", "Memory use at the end of the test.",
                            u -> Optional.of((double) u.after().memoryUsage().toBytes())),
                    container("vitals_container_cpu_user_seconds_total", "counter", "CPU time in user mode.",
                            u -> Optional.of(Figures.seconds(u.cpuUserTime()))),
                    container("vitals_container_cpu_system_seconds_total", "counter", "CPU time in kernel mode.",
                            u -> Optional.of(Figures.seconds(u.cpuSystemTime()))),
                    container("vitals_container_cpu_peak_usage_ratio", "gauge",
                            "Highest CPU use between two samples; 1 is one full core.",
                            u -> Optional.of(u.peakCpuPercent().fraction())),
                    container("vitals_container_cpu_throttled_periods_total", "counter",
                            "CFS periods in which the container was throttled.",
                            u -> Optional.of((double) u.throttledPeriods())),
                    container("vitals_container_oom_kills_total", "counter",
                            "Processes killed by the kernel's OOM killer during the test.",
                            // none from the Engine API, which does not count them
                            u -> ReportedFigure.oomKills(u).value().stream().boxed().findFirst()),
                    container("vitals_container_memory_limit_hits_total", "counter",
                            "Times memory use hit the limit during the test.",
                            u -> Optional.of((double) u.memoryLimitHits())),
                    new Family("vitals_container_pressure_stall_seconds_total", "counter",
                            "Time tasks were stalled on a resource (PSI), by resource and scope (some or full).",
                            PrometheusWriter::pressure),
                    // only overlapped containers have a sample: a run of tests one at a time writes what it did
                    new Family("vitals_container_overlapped_tests", "gauge",
                            "Other tests whose measurement of this shared container overlapped this test's: its "
                                    + "figures include their usage.",
                            PrometheusWriter::overlapped),
                    new Family("vitals_budget_breached", "gauge", "1 if the budget was breached, else 0.",
                            PrometheusWriter::budgets),
                    new Family("vitals_baseline_regressed", "gauge",
                            "1 if the metric regressed beyond tolerance against the baseline, 0 if it improved "
                                    + "beyond it.",
                            PrometheusWriter::baseline)))
            .flatMap(families -> families).toList();

    private final PrometheusSeries series;

    /** @param series which tests get per-test series, and whether per-class series follow */
    public PrometheusWriter(PrometheusSeries series) {
        this.series = series;
    }

    public String write(RunReport run) {
        List<RunReport.Entry> perTest = switch (series) {
            case TEST -> run.tests();
            case BREACHED -> run.tests().stream().filter(ClassAggregates::flagged).toList();
            case CLASS -> List.of();
        };
        StringBuilder out = new StringBuilder(perTest.size() * 4096 + 4096);
        List<Sample> samples = new ArrayList<>();
        for (Family family : families) {
            samples.clear();
            for (RunReport.Entry entry : perTest) {
                family.samples().accept(entry, samples);
            }
            append(out, family.name(), family.type(), family.help(), samples);
        }
        if (series != PrometheusSeries.TEST) {
            for (ClassAggregates.Family family : new ClassAggregates().families(run)) {
                append(out, family.name(), family.type(), family.help(), family.samples().stream()
                        .map(s -> new Sample(s.getKey(), s.getValue())).toList());
            }
        }
        return out.toString();
    }

    // a family without any sample is left out, HELP and TYPE included
    private static void append(StringBuilder out, String name, String type, String help, List<Sample> samples) {
        if (samples.isEmpty()) {
            return;
        }
        out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        for (Sample sample : samples) {
            out.append(name).append('{').append(sample.labels()).append("} ").append(number(sample.value()))
                    .append('\n');
        }
    }

    private static Family test(String name, String type, String help,
            java.util.function.ToDoubleFunction<TestResult> value) {
        return new Family(name, type, help,
                (entry, out) -> out.add(new Sample(testLabels(entry.result()), value.applyAsDouble(entry.result()))));
    }

    // A figure's family, in the Prometheus base unit; a figure not known (headroom without a limit) or not measured
    // on this host (ReportedFigure: block write on cgroup v1) has no sample, so no 0 claims it was counted, and a
    // family without any sample is left out.
    private static Family figure(Metric metric) {
        return container(metric.exported().name(), metric.exported().type().text(), metric.exported().help(),
                u -> {
                    var value = ReportedFigure.of(metric, u).value();
                    return value.isPresent() ? Optional.of(metric.unit().toPrometheus(value.getAsDouble()))
                            : Optional.empty();
                });
    }

    private static Family container(String name, String type, String help,
            Function<ResourceUsage, Optional<Double>> value) {
        return new Family(name, type, help, (entry, out) -> {
            for (ContainerResult c : entry.result().containers()) {
                value.apply(c.usage()).ifPresent(v -> out.add(new Sample(containerLabels(entry.result(), c), v)));
            }
        });
    }

    private static void overlapped(RunReport.Entry entry, List<Sample> out) {
        for (ContainerResult c : entry.result().containers()) {
            if (c.overlap().isPresent()) {
                out.add(new Sample(containerLabels(entry.result(), c), c.overlap().tests().size()));
            }
        }
    }

    private static void pressure(RunReport.Entry entry, List<Sample> out) {
        for (ContainerResult c : entry.result().containers()) {
            String labels = containerLabels(entry.result(), c);
            stall(out, labels, "cpu", c.usage().pressureStallCpu());
            stall(out, labels, "memory", c.usage().pressureStallMemory());
            stall(out, labels, "io", c.usage().pressureStallIo());
        }
    }

    private static void stall(List<Sample> out, String labels, String resource, Optional<PressureStall> stall) {
        stall.ifPresent(s -> {
            out.add(new Sample(labels + ",resource=\"" + resource + "\",scope=\"some\"", Figures.seconds(s.some())));
            out.add(new Sample(labels + ",resource=\"" + resource + "\",scope=\"full\"", Figures.seconds(s.full())));
        });
    }

    private static void budgets(RunReport.Entry entry, List<Sample> out) {
        for (ContainerResult c : entry.result().containers()) {
            for (BudgetResult budget : c.budgets()) {
                out.add(new Sample(containerLabels(entry.result(), c) + ",budget=\"" + escape(budget.name())
                        + "\"", budget.passed() ? 0 : 1));
            }
        }
    }

    private static void baseline(RunReport.Entry entry, List<Sample> out) {
        for (RegressionFinding finding : entry.verdict().findings()) {
            String labels = "class=\"" + escape(entry.result().className()) + "\",test=\""
                    + escape(ReportNames.label(entry.result())) + "\",container=\"" + escape(finding.container())
                    + "\",metric=\"" + finding.metric().key() + "\"";
            out.add(new Sample(labels, finding.kind() == RegressionFinding.Kind.REGRESSION ? 1 : 0));
        }
    }

    private static String testLabels(TestResult result) {
        return "class=\"" + escape(result.className()) + "\",test=\"" + escape(ReportNames.label(result)) + "\"";
    }

    private static String containerLabels(TestResult result, ContainerResult container) {
        return testLabels(result) + ",container=\"" + escape(container.name()) + "\"";
    }

    /** Label values escape backslash, double quote and line feed. */
    public static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\': out.append("\\\\"); break;
                case '"': out.append("\\\""); break;
                case '\n': out.append("\\n"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }

    // HELP text escapes backslash and line feed, but not quotes.
    private static String escapeHelp(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }

    // Whole numbers without ".0", so byte counts read as integers; Go's parser accepts both.
    private static String number(double value) {
        if (Figures.isWhole(value)) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }
}
