package io.vitals.internal.report.prometheus;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Exported;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.report.model.RunReport;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

import org.apiguardian.api.API;

/**
 * The per-class families of {@code vitals.prom}: one series per test class (and container), whatever the number of
 * tests, so that a dashboard's series stay the same from run to run and the file grows with the classes, not the
 * tests (Prometheus' advice on label cardinality).
 *
 * <p>A figure's counter is summed over the class's tests (the CPU seconds the class used); a gauge keeps its worst
 * test's value: the highest, or the lowest for a figure that must stay above its budget (memory headroom). The
 * counts (tests, failed, skipped, breached budgets, regressions) are gauges that read 0 on a healthy run, so an
 * alert on them never depends on a series being absent.
 */
@API(status = INTERNAL, since = "0.1")
final class ClassAggregates {

    /** One family: its name, TYPE, HELP and samples (label text and value), in the order of the run. */
    record Family(String name, String type, String help, List<Map.Entry<String, Double>> samples) {
    }

    List<Family> families(RunReport run) {
        Map<String, List<RunReport.Entry>> byClass = new LinkedHashMap<>();
        for (RunReport.Entry entry : run.tests()) {
            byClass.computeIfAbsent(entry.result().className(), k -> new ArrayList<>()).add(entry);
        }
        List<Family> families = new ArrayList<>();
        families.add(count(byClass, "vitals_class_tests", "Tests of the class in this run.", e -> 1));
        families.add(count(byClass, "vitals_class_tests_failed", "Tests of the class that failed or were aborted.",
                e -> e.result().outcome() == TestResult.Outcome.FAILED
                        || e.result().outcome() == TestResult.Outcome.ABORTED ? 1 : 0));
        families.add(count(byClass, "vitals_class_tests_skipped", "Tests of the class that were disabled.",
                e -> e.result().outcome() == TestResult.Outcome.SKIPPED ? 1 : 0));
        families.add(count(byClass, "vitals_class_duration_seconds", "Wall time of the class's tests, summed.",
                e -> Figures.seconds(e.result().duration())));
        families.add(count(byClass, "vitals_class_budgets_breached", "Budgets breached by the class's tests.",
                e -> e.result().containers().stream().flatMap(c -> c.budgets().stream())
                        .filter(b -> !b.passed()).count()));
        families.add(count(byClass, "vitals_class_regressions",
                "Figures of the class's tests that regressed against the baseline or the run history.",
                e -> e.verdict().regressions().size()));
        for (Metric metric : Metric.all()) {
            figure(byClass, metric).ifPresent(families::add);
        }
        return families;
    }

    private static Family count(Map<String, List<RunReport.Entry>> byClass, String name, String help,
            ToDoubleFunction<RunReport.Entry> value) {
        List<Map.Entry<String, Double>> samples = new ArrayList<>();
        byClass.forEach((className, entries) -> samples.add(Map.entry(classLabel(className),
                entries.stream().mapToDouble(value).sum())));
        return new Family(name, "gauge", help, samples);
    }

    // vitals_container_memory_peak_bytes -> vitals_class_container_memory_peak_bytes, same unit and type
    private static Optional<Family> figure(Map<String, List<RunReport.Entry>> byClass, Metric metric) {
        Exported exported = metric.exported();
        boolean counter = exported.type() == Exported.Type.COUNTER;
        boolean floor = metric.direction() == Direction.FLOOR;
        List<Map.Entry<String, Double>> samples = new ArrayList<>();
        byClass.forEach((className, entries) -> {
            Map<String, OptionalDouble> byContainer = new LinkedHashMap<>();
            for (RunReport.Entry entry : entries) {
                for (ContainerResult c : entry.result().containers()) {
                    OptionalDouble value = ReportedFigure.of(metric, c.usage()).value();
                    OptionalDouble before = byContainer.getOrDefault(c.name(), OptionalDouble.empty());
                    if (value.isEmpty()) {
                        byContainer.putIfAbsent(c.name(), before);
                        continue;
                    }
                    double v = metric.unit().toPrometheus(value.getAsDouble());
                    double merged = before.isEmpty() ? v
                            : counter ? before.getAsDouble() + v
                            : floor ? Math.min(before.getAsDouble(), v) : Math.max(before.getAsDouble(), v);
                    byContainer.put(c.name(), OptionalDouble.of(merged));
                }
            }
            byContainer.forEach((container, value) -> value.ifPresent(v -> samples.add(Map.entry(
                    classLabel(className) + ",container=\"" + PrometheusWriter.escape(container) + "\"", v))));
        });
        if (samples.isEmpty()) {
            return Optional.empty();
        }
        String help = (counter ? "Summed over the class's tests: "
                : floor ? "Lowest of the class's tests: " : "Highest of the class's tests: ") + exported.help();
        return Optional.of(new Family(exported.name().replaceFirst("^vitals_container_",
                "vitals_class_container_"), exported.type().text(), help, samples));
    }

    private static String classLabel(String className) {
        return "class=\"" + PrometheusWriter.escape(className) + "\"";
    }

    // a test that failed, breached a budget or regressed: the ones a reader of a per-class file needs named
    static boolean flagged(RunReport.Entry entry) {
        TestResult result = entry.result();
        return result.outcome() == TestResult.Outcome.FAILED || result.outcome() == TestResult.Outcome.ABORTED
                || entry.verdict().hasRegressions()
                || result.containers().stream().flatMap(c -> c.budgets().stream()).anyMatch(b -> !b.passed());
    }
}
