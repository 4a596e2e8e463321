package io.vitals.internal.report.html;

import io.vitals.DataSize;
import io.vitals.ResourceUsage;
import io.vitals.TimelinePoint;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.probe.Lane;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportedFigure;
import io.vitals.internal.source.SourceKinds;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The charts of one container in one test: memory against its limit and memory budgets, CPU %, cumulative CPU time
 * (where a cpuTime budget broke), PIDs, cumulative I/O (only the series this host measured), and a chart for each
 * lane of a further source (GPU memory and utilisation), each with the phase starts and the fault (OOM kill, exit)
 * marked.
 */
final class TestCharts {

    private TestCharts() {
    }

    /** A chart that explains a failure, and what it shows in a few words ("cpuTime 12.0 s > 10 s"). */
    record Explaining(LineChart chart, String why) {
    }

    /**
     * The fewest readings a test's charts are drawn for. Two are the window's first and last reading, which a test
     * shorter than one sampling interval has and nothing between: every chart of them is a straight line over an
     * axis of "0.0 s" ticks, which says less than the figures above it, and made up three quarters of such a test's
     * section (200 of them rendered at a run's end).
     */
    static final int FEWEST_CHARTED_READINGS = 3;

    static void render(ContainerResult container, StringBuilder out) {
        List<TimelinePoint> points = container.usage().timeline().points();
        if (points.isEmpty()) {
            out.append("<p class=\"muted\">No samples were taken.</p>");
            return;
        }
        if (points.size() == 1) {
            // the window could not be read at its close (the container was gone)
            out.append("<p class=\"muted\">No charts: one reading; a chart needs ").append(FEWEST_CHARTED_READINGS)
                    .append(". The figures above are from it.</p>");
            return;
        }
        if (points.size() < FEWEST_CHARTED_READINGS) {
            out.append("<p class=\"muted\">No charts: two readings over ")
                    .append(Figures.duration(points.get(1).offset().minus(points.get(0).offset())))
                    .append(", the window's first and last; a chart needs ").append(FEWEST_CHARTED_READINGS)
                    .append(". The figures above are from them.</p>");
            return;
        }
        out.append("<div class=\"charts\">");
        memory(container).render(out);
        cpu(container).render(out);
        if (container.budgets().stream().anyMatch(b -> b.metric() == Metric.CPU_TIME && !b.passed())) {
            // a CPU time budget is a line on the cumulative curve, which the CPU % chart cannot show; drawn where
            // it broke only: on every test with such a budget it made a 10,000-test page 18 % larger
            cpuTime(container).render(out);
        }
        pids(container).render(out);
        io(container).ifPresent(chart -> chart.render(out));
        SourceKinds.lanes(container.usage()).forEach(lane -> lane(container, lane).ifPresent(c -> c.render(out)));
        out.append("</div>");
    }

    /**
     * The charts that explain what went wrong with {@code container}, one per broken figure: memory for an OOM kill
     * or an exit, then the chart of each breached budget's figure (CPU time, CPU %, PIDs, I/O, a GPU lane, memory),
     * each once, in the order of the budgets. Memory alone when nothing names a figure; empty without samples.
     */
    static List<Explaining> explaining(ContainerResult container) {
        if (container.usage().timeline().points().isEmpty()) {
            return List.of();
        }
        List<String> kinds = new ArrayList<>();
        List<Explaining> charts = new ArrayList<>();
        container.fault().ifPresent(f -> {
            kinds.add("memory");
            charts.add(new Explaining(memory(container), f.description().strip().lines().findFirst().orElse("")));
        });
        for (BudgetResult budget : container.budgets()) {
            if (budget.passed()) {
                continue;
            }
            Metric metric = budget.metric();
            String kind = switch (metric.resource()) {
                case CPU -> metric == Metric.CPU_TIME ? "cpuTime" : "cpu";
                case PIDS -> "pids";
                case BLOCK_IO, NETWORK -> "io";
                case GPU -> "gpu:" + metric.attribute();
                default -> "memory";
            };
            if (kinds.contains(kind)) {
                continue;
            }
            Optional<LineChart> chart = switch (kind) {
                case "cpuTime" -> Optional.of(cpuTime(container));
                case "cpu" -> Optional.of(cpu(container));
                case "pids" -> Optional.of(pids(container));
                case "io" -> io(container);
                case "memory" -> Optional.of(memory(container));
                default -> SourceKinds.lanes(container.usage()).stream()
                        .filter(lane -> lane.budgetAttributes().contains(metric.attribute()))
                        .flatMap(lane -> lane(container, lane).stream()).findFirst();
            };
            if (chart.isPresent()) {
                kinds.add(kind);
                charts.add(new Explaining(chart.get(), budget.breach()));
            }
        }
        if (charts.isEmpty()) {
            charts.add(new Explaining(memory(container), "memory over the test"));
        }
        return List.copyOf(charts);
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

    // Cumulative, so that a cpuTime budget is a horizontal line the curve crosses where the budget broke.
    private static LineChart cpuTime(ContainerResult container) {
        List<TimelinePoint> points = container.usage().timeline().points();
        LineChart cpuTime = new LineChart("CPU time (cumulative)", Metric.CPU_TIME::format)
                .series("CPU time", "s-cpu", seconds(points), values(points, p -> Figures.seconds(p.cpuTime())));
        budgets(container, cpuTime, "cpuTime");
        marks(container, cpuTime);
        return cpuTime;
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

    /**
     * Block and network I/O, each series only where this host measured it: a cgroup v1 host without blkio figures
     * for the container, say, reports its block I/O as not measured, and a flat zero line would claim none happened.
     * Empty when none of the four was measured.
     */
    private static Optional<LineChart> io(ContainerResult container) {
        ResourceUsage u = container.usage();
        List<TimelinePoint> points = u.timeline().points();
        double[] x = seconds(points);
        LineChart io = new LineChart("I/O (cumulative)", v -> DataSize.ofBytes(Math.round(v)).toString());
        int drawn = 0;
        drawn += ioSeries(io, u, Metric.BLOCK_READ, "block read", "s-br", x,
                values(points, p -> p.blockRead().toBytes()));
        drawn += ioSeries(io, u, Metric.BLOCK_WRITE, "block write", "s-bw", x,
                values(points, p -> p.blockWrite().toBytes()));
        drawn += ioSeries(io, u, Metric.NETWORK_RECEIVED, "net rx", "s-rx", x,
                values(points, p -> p.networkReceived().toBytes()));
        drawn += ioSeries(io, u, Metric.NETWORK_SENT, "net tx", "s-tx", x,
                values(points, p -> p.networkSent().toBytes()));
        if (drawn == 0) {
            return Optional.empty();
        }
        for (Metric metric : List.of(Metric.BLOCK_READ, Metric.BLOCK_WRITE, Metric.NETWORK_RECEIVED,
                Metric.NETWORK_SENT)) {
            budgets(container, io, metric.attribute());
        }
        marks(container, io);
        return Optional.of(io);
    }

    private static int ioSeries(LineChart io, ResourceUsage u, Metric metric, String label, String css, double[] x,
            double[] y) {
        if (ReportedFigure.of(metric, u).isNotMeasured()) {
            return 0;
        }
        io.series(label, css, x, y);
        return 1;
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
