package io.vitals.internal.report.html;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.source.SourceKinds;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The charts of one container in one test: memory against its limit and memory budgets, CPU %, PIDs, cumulative
 * I/O, and a chart for each lane of a further source (GPU memory and utilisation), each with the phase starts and
 * the fault (OOM kill, exit) marked.
 */
final class TestCharts {

    private TestCharts() {
    }

    static void render(ContainerResult container, StringBuilder out) {
        if (container.usage().timeline().points().isEmpty()) {
            out.append("<p class=\"muted\">No samples were taken.</p>");
            return;
        }
        out.append("<div class=\"charts\">");
        memory(container).render(out);
        cpu(container).render(out);
        pids(container).render(out);
        io(container).render(out);
        SourceKinds.lanes(container.usage()).forEach(lane -> lane(container, lane).ifPresent(c -> c.render(out)));
        out.append("</div>");
    }

    /**
     * The one chart that explains what went wrong with {@code container}: memory for an OOM kill, an exit or a
     * breached memory budget, else the chart that draws the first breached budget's figure; memory when no budget
     * names one. Empty without samples.
     */
    static Optional<LineChart> explaining(ContainerResult container) {
        if (container.usage().timeline().points().isEmpty()) {
            return Optional.empty();
        }
        if (container.fault().isPresent()) {
            return Optional.of(memory(container));
        }
        Optional<String> breached = container.budgets().stream().filter(b -> !b.passed()).map(b -> b.metric()
                .attribute()).findFirst();
        if (breached.isEmpty()) {
            return Optional.of(memory(container));
        }
        Metric metric = Metric.byAttribute(breached.get()).orElse(Metric.PEAK_MEMORY);
        return switch (metric.resource()) {
            case CPU -> Optional.of(cpu(container));
            case PIDS -> Optional.of(pids(container));
            case BLOCK_IO, NETWORK -> Optional.of(io(container));
            case GPU -> SourceKinds.lanes(container.usage()).stream()
                    .filter(lane -> lane.budgetAttributes().contains(breached.get()))
                    .flatMap(lane -> lane(container, lane).stream()).findFirst()
                    .or(() -> Optional.of(memory(container)));
            default -> Optional.of(memory(container));
        };
    }

    private static double[] seconds(List<TimelinePoint> points) {
        return values(points, p -> Figures.seconds(p.offset()));
    }

    private static LineChart memory(ContainerResult container) {
        ResourceUsage u = container.usage();
        List<TimelinePoint> points = u.timeline().points();
        LineChart memory = new LineChart("Memory", v -> DataSize.ofBytes(Math.round(v)).toString())
                .series("memory", "s-mem", seconds(points), values(points, p -> p.memory().toBytes()));
        u.memoryLimit().ifPresent(l -> memory.horizontal("limit " + l, "m-limit", l.toBytes()));
        budgets(container, memory, "peakMemory");
        marks(container, memory);
        return memory;
    }

    private static LineChart cpu(ContainerResult container) {
        List<TimelinePoint> points = container.usage().timeline().points();
        LineChart cpu = new LineChart("CPU % (100 % = one core)", v -> AxisLabels.whole(v) + " %")
                .series("cpu", "s-cpu", seconds(points), values(points, TimelinePoint::cpuPercent));
        container.limits().cpus().ifPresent(c -> cpu.horizontal("limit " + c + " CPUs", "m-limit", c * 100));
        budgets(container, cpu, "averageCpu");
        marks(container, cpu);
        return cpu;
    }

    private static LineChart pids(ContainerResult container) {
        List<TimelinePoint> points = container.usage().timeline().points();
        LineChart pids = new LineChart("PIDs", AxisLabels::whole)
                .series("pids", "s-pids", seconds(points), values(points, TimelinePoint::pids));
        container.limits().pids().ifPresent(l -> pids.horizontal("limit " + l, "m-limit", l));
        budgets(container, pids, "peakPids");
        marks(container, pids);
        return pids;
    }

    private static LineChart io(ContainerResult container) {
        List<TimelinePoint> points = container.usage().timeline().points();
        double[] x = seconds(points);
        LineChart io = new LineChart("I/O (cumulative)", v -> DataSize.ofBytes(Math.round(v)).toString())
                .series("block read", "s-br", x, values(points, p -> p.blockRead().toBytes()))
                .series("block write", "s-bw", x, values(points, p -> p.blockWrite().toBytes()))
                .series("net rx", "s-rx", x, values(points, p -> p.networkReceived().toBytes()))
                .series("net tx", "s-tx", x, values(points, p -> p.networkSent().toBytes()));
        marks(container, io);
        return io;
    }

    // A further source's timeline (GPU memory, say) on its own time axis; samples without a figure are left out.
    private static Optional<LineChart> lane(ContainerResult container, Lane lane) {
        LineChart chart = new LineChart(lane.title(), lane.unit()::format);
        int drawn = 0;
        for (Lane.Series series : lane.series()) {
            List<Integer> known = new ArrayList<>();
            for (int i = 0; i < series.values().size(); i++) {
                if (!Double.isNaN(series.values().get(i))) {
                    known.add(i);
                }
            }
            if (!known.isEmpty()) {
                // three colours (HtmlAssets), taken in turn
                chart.series(series.label(), "s-lane" + drawn++ % 3,
                        known.stream().mapToDouble(i -> Figures.seconds(lane.offsets().get(i))).toArray(),
                        known.stream().mapToDouble(i -> series.values().get(i)).toArray());
            }
        }
        if (drawn == 0) {
            return Optional.empty();
        }
        lane.budgetAttributes().forEach(attribute -> budgets(container, chart, attribute));
        marks(container, chart);
        return Optional.of(chart);
    }

    // Only the budget in the chart's own unit is drawn: a memory chart shows peakMemory, not memoryHeadroom.
    private static void budgets(ContainerResult container, LineChart chart, String attribute) {
        for (BudgetResult budget : container.budgets()) {
            String a = budget.name();
            if (a.equals(attribute)) {
                chart.horizontal("budget " + a + " " + budget.limit().text(),
                        budget.passed() ? "m-budget" : "m-breach", budget.limit().value());
            }
        }
    }

    private static void marks(ContainerResult container, LineChart chart) {
        for (ResourceUsage.Phase phase : container.usage().phases()) {
            chart.vertical(phase.name(), "m-phase", Figures.seconds(phase.start()));
        }
        container.fault().ifPresent(f -> f.at().ifPresent(at -> chart.vertical(
                switch (f.kind()) {
                    case OOM_KILL -> "OOM kill";
                    case EXITED -> "exited";
                    case ENGINE_GONE -> "engine gone";
                }, "m-oom",
                Figures.seconds(at))));
    }

    private static double[] values(List<TimelinePoint> points, ToDoubleFunction<TimelinePoint> value) {
        double[] out = new double[points.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = value.applyAsDouble(points.get(i));
        }
        return out;
    }
}
