package io.vitals.internal.metric;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The fields of one {@link Metric}, set by name so that an entry of the table reads like a form (cAdvisor's
 * struct literals), with defaults for what most figures share. Used only while the enum initialises.
 */
final class MetricSpec {

    final String key;
    final String label;
    final Unit unit;
    final Direction direction;
    final Resource resource;
    final String jsonField;
    Optional<String> attribute = Optional.empty();
    ToDoubleFunction<ResourceUsage> extractor;
    Function<ResourceUsage, Acquisition> acquisition = u -> Acquisition.EXACT;
    Function<ResourceUsage, String> method;
    Function<ResourceUsage, Optional<Duration>> reachedAt = u -> Optional.empty();
    Function<ResourceUsage, Optional<String>> context = u -> Optional.empty();
    String unknownReason = "the probe could not measure it";
    Function<ResourceUsage, Optional<String>> unmeasurable = u -> Optional.empty();
    Function<ResourceUsage, Optional<String>> absence = u -> Optional.empty();
    boolean contentionSensitive;
    Optional<ToDoubleFunction<LiveSample>> live = Optional.empty();
    Optional<BudgetBound> bound = Optional.empty();
    Optional<Comparison> comparison = Optional.empty();
    Exported exported;
    Optional<FigureSource> source = Optional.empty();
    boolean detail;

    private MetricSpec(String key, String label, Unit unit, Direction direction, Resource resource,
            String jsonField) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.direction = direction;
        this.resource = resource;
        this.jsonField = jsonField;
    }

    /**
     * A figure with key {@code key}, printed as {@code label} in sentences and as {@code jsonField} in the run index
     * and the per-test usage.
     */
    static MetricSpec figure(String key, String label, Unit unit, Direction direction, Resource resource,
            String jsonField) {
        return new MetricSpec(key, label, unit, direction, resource, jsonField);
    }

    /**
     * A budgetable total of bytes a container moved during the test (block I/O, network), read as {@code amount}
     * from a kernel counter described by {@code method}: a ceiling, compared with a 1 MiB noise floor and exported
     * as the Prometheus counter {@code counter}. The four such figures differ only in these names.
     */
    static MetricSpec bytesMoved(String key, String label, Resource resource, String jsonField,
            Function<ResourceUsage, DataSize> amount, Function<ResourceUsage, String> method, String counter,
            String help) {
        return figure(key, label, Unit.SIZE, Direction.CEILING, resource, jsonField)
                .budgetable().read(u -> amount.apply(u).toBytes()).method(method)
                .compared(1024 * 1024)
                .counter(counter, help);
    }

    /** Budgets can be set on it, with the {@code @ResourceBudget} attribute named like its key. */
    MetricSpec budgetable() {
        attribute = Optional.of(key);
        return this;
    }

    /** The figure in the base unit; NaN when it is not known. */
    MetricSpec read(ToDoubleFunction<ResourceUsage> value) {
        extractor = value;
        return this;
    }

    MetricSpec obtained(Function<ResourceUsage, Acquisition> how) {
        acquisition = how;
        return this;
    }

    MetricSpec sampled() {
        return obtained(u -> Acquisition.SAMPLED);
    }

    MetricSpec method(Function<ResourceUsage, String> words) {
        method = words;
        return this;
    }

    MetricSpec reachedAt(Function<ResourceUsage, Optional<Duration>> when) {
        reachedAt = when;
        return this;
    }

    MetricSpec context(Function<ResourceUsage, Optional<String>> words) {
        context = words;
        return this;
    }

    MetricSpec unknownReason(String why) {
        unknownReason = why;
        return this;
    }

    /**
     * Where the figure may be missing for a reason of the host (no GPU visible): {@code why} gives that reason for
     * a usage, empty when the figure is there, and {@code shortly} the words a report cell prints instead of it.
     */
    MetricSpec missingWhere(Function<ResourceUsage, Optional<String>> why,
            Function<ResourceUsage, Optional<String>> shortly) {
        unmeasurable = why;
        absence = shortly;
        return this;
    }

    MetricSpec contentionSensitive() {
        contentionSensitive = true;
        return this;
    }

    /** A single sample shows the figure already, so a {@code failFast} budget can end the test on it. */
    MetricSpec live(ToDoubleFunction<LiveSample> value) {
        live = Optional.of(value);
        return this;
    }

    MetricSpec atMost(double max, String noun, String reason) {
        bound = Optional.of(new BudgetBound(max, noun, reason));
        return this;
    }

    MetricSpec compared(double noiseFloor) {
        comparison = Optional.of(new Comparison(noiseFloor, true));
        return this;
    }

    MetricSpec comparedOnRequest(double noiseFloor) {
        comparison = Optional.of(new Comparison(noiseFloor, false));
        return this;
    }

    /**
     * The figure is read from {@code source} by the generic readers and aggregated by the generic calculator: its
     * value, how it was obtained, its method and why it may be missing all follow from the source, so the entry
     * needs no extractor of its own.
     */
    MetricSpec from(FigureSource source) {
        this.source = Optional.of(source);
        acquisition = u -> source.aggregation().acquisition();
        method = u -> source.describe(u.probe());
        return this;
    }

    /**
     * A detail of another figure (the peak's composition): in the JSON files, vitals.prom, the per-test HTML and the
     * breach message, but not a column of the console, HTML or summary.md tables, which stay one line wide.
     */
    MetricSpec detail() {
        detail = true;
        return this;
    }

    MetricSpec gauge(String name, String help) {
        exported = new Exported(name, Exported.Type.GAUGE, help);
        return this;
    }

    MetricSpec counter(String name, String help) {
        exported = new Exported(name, Exported.Type.COUNTER, help);
        return this;
    }

    /**
     * Completes a sourced entry with what only the finished descriptor can give: its value and why it may be
     * missing are read from the usage's {@link SourcedFigures} under {@code metric}.
     */
    MetricSpec sourcedAs(Metric metric) {
        if (source.isPresent()) {
            if (extractor == null) {
                extractor = u -> SourcedFigures.of(u).read(metric);
            }
            unmeasurable = u -> SourcedFigures.of(u).reason(metric);
        }
        return this;
    }

    /** Checks that every field without a default was set: an entry cannot forget its extractor or its export. */
    MetricSpec complete() {
        Objects.requireNonNull(extractor, () -> key + ": no extractor");
        Objects.requireNonNull(method, () -> key + ": no measurement method");
        Objects.requireNonNull(exported, () -> key + ": no Prometheus family");
        return this;
    }
}
