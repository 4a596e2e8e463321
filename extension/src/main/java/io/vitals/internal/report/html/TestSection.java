package io.vitals.internal.report.html;

import io.vitals.ResourceUsage;
import io.vitals.internal.metric.PeakComposition;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.BudgetStatus;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.Exactness;
import io.vitals.internal.result.Figures;
import io.vitals.internal.result.ReportedFigure;

import java.util.Locale;

/** One container's part of a test's section: its facts, budgets, phases, charts, fault and log tail. */
final class TestSection {

    private TestSection() {
    }

    /** The row of docs/metrics.md's exactness table this container was measured on, and the cell of each column. */
    private static void hostShape(ContainerResult c, StringBuilder out) {
        out.append("<p class=\"facts\">host shape <b>").append(Html.escape(c.hostShape().label())).append("</b> (")
                .append(Html.escape(c.hostShape().id())).append(")");
        Exactness exactness = Exactness.of(c.usage(), c.measuredFromStart());
        for (Exactness.Column column : Exactness.Column.values()) {
            exactness.cell(column).ifPresent(cell -> out.append(" · ").append(Html.escape(column.heading()))
                    .append(": ").append(Html.escape(cell.describe())));
        }
        out.append("</p>");
    }

    // The Engine API counts no OOM kills: its 0 would say none happened, so the line says it was not measured.
    private static String oomKills(ResourceUsage u) {
        ReportedFigure kills = ReportedFigure.oomKills(u);
        return kills.value().isPresent() ? Long.toString(Math.round(kills.value().getAsDouble()))
                : "<span class=\"absent\" title=\"" + Html.escape(kills.notMeasured().orElseThrow()) + "\">"
                        + ReportedFigure.NOT_MEASURED_HERE + "</span>";
    }

    static void container(ContainerResult c, StringBuilder out) {
        ResourceUsage u = c.usage();
        out.append("<h4>").append(Html.escape(c.name())).append(" <span class=\"muted\">")
                .append(Html.escape(c.image())).append("</span></h4><p class=\"facts\">")
                .append("peak memory <b>").append(Html.escape(u.peakMemory().toString())).append("</b> at ")
                .append(Figures.duration(u.peak().at())).append(" (").append(Html.escape(u.peak().describeMethod()))
                .append(")");
        u.peakMemoryHighWaterMark().ifPresent(h -> out.append(" · high-water mark ").append(Html.escape(h.toString())));
        out.append(" · limit ").append(Html.escape(u.memoryLimit().map(Object::toString).orElse("none")));
        c.limits().gpus().ifPresent(g -> out.append(" · GPUs requested: ").append(Html.escape(g)));
        out
                .append(" · CPU ").append(Figures.duration(u.cpuTime())).append(" (avg ")
                .append(u.averageCpuPercent()).append(", peak ")
                .append(u.peakCpuPercent()).append(")")
                .append(" · throttled ").append(Figures.duration(u.throttledTime()))
                .append(" · PIDs ").append(u.peakPids())
                .append(" · OOM kills ").append(oomKills(u))
                .append(" · probe: ").append(Html.escape(c.probeDescription()))
                .append(", every ").append(u.timeline().samplingInterval().toMillis()).append(" ms, ")
                .append(u.timeline().samples()).append(" samples</p>");
        // what filled the peak: the first question when a memory budget breaks
        PeakComposition.describe(u).ifPresent(words -> out.append("<p class=\"facts\">Peak composition ")
                .append(Html.escape(words)).append("</p>"));
        hostShape(c, out);
        if (c.overlap().isPresent()) {
            out.append("<p class=\"overlap\"><b>Overlapped:</b> ").append(Html.escape(c.overlap().sentence(c.name())))
                    .append(". These figures are left out of the history, the baseline and the suggested budgets.</p>");
        }
        if (!c.budgets().isEmpty()) {
            // the verdict next to the name, before the long texts: a long method cannot push it out of view
            out.append("<table class=\"budgets\"><tr><th>Budget</th><th></th><th>Limit</th><th>Actual</th>")
                    .append("<th>Margin</th><th>Method</th></tr>");
            for (BudgetResult b : c.budgets()) {
                boolean unmeasured = b.status() == BudgetStatus.NOT_MEASURABLE;
                out.append("<tr class=\"").append(!b.passed() ? "bad" : unmeasured ? "warn" : "good").append("\"><td>")
                        .append(Html.escape(b.name())).append("</td><td class=\"verdict\"")
                        .append(b.note().map(n -> " title=\"" + Html.escape(n) + "\"").orElse("")).append(">")
                        .append(!b.passed() ? "<b>breached</b>" : unmeasured ? "not measurable" : "ok")
                        .append("</td><td>").append(Html.escape(b.limit().text()))
                        .append("</td><td>").append(Html.escape(b.actualText())).append("</td><td>")
                        .append(b.marginPercent().isPresent()
                                ? String.format(Locale.ROOT, "%+.1f %%", b.marginPercent().getAsDouble()) : "–")
                        .append("</td><td class=\"method\" title=\"").append(Html.escape(b.method())).append("\">")
                        .append(Html.escape(b.method()))
                        .append(b.note().map(n -> "<br><span class=\"muted\">" + Html.escape(n) + "</span>")
                                .orElse("")).append("</td></tr>");
            }
            out.append("</table>");
        }
        if (!u.phases().isEmpty()) {
            out.append("<p class=\"facts\">Phases: ");
            for (ResourceUsage.Phase phase : u.phases()) {
                out.append("<b>").append(Html.escape(phase.name())).append("</b> from ")
                        .append(Figures.duration(phase.start())).append(": peak ")
                        .append(Html.escape(phase.usage().peakMemory().toString())).append(", CPU ")
                        .append(Figures.duration(phase.usage().cpuTime())).append("; ");
            }
            out.append("</p>");
        }
        c.fault().ifPresent(f -> out.append("<p class=\"bad\">").append(Html.escape(f.description())).append("</p>"));
        TestCharts.render(c, out);
        if (!c.logTail().isEmpty()) {
            out.append("<details class=\"log\"><summary>Log tail (").append(c.logTail().size())
                    .append(" lines)</summary><pre>");
            c.logTail().forEach(line -> out.append(Html.escape(line)).append('\n'));
            out.append("</pre></details>");
        }
    }
}
