package io.vitals.internal.report.html;

import io.vitals.internal.metric.Metric;
import io.vitals.internal.regression.HistoryContext;
import io.vitals.internal.regression.RegressionVerdict;

import java.util.List;
import java.util.Locale;

/**
 * The small trend chart of each figure that regressed, improved or stepped: one dot per build of its testbed, oldest
 * left, this build last and filled; the step the change-point analysis names drawn as a dashed line with its build
 * and commit, and the levels before and after it. So the build where a figure moved is seen, not only read.
 */
final class TrendCharts {

    private static final ChartFrame FRAME = new ChartFrame(360, 96, 64, 8, 18, 14);

    private TrendCharts() {
    }

    static void render(RegressionVerdict verdict, StringBuilder out) {
        if (verdict.history().isEmpty() || verdict.history().get().trends().isEmpty()) {
            return;
        }
        out.append("<div class=\"trends\">");
        for (HistoryContext.Trend trend : verdict.history().get().trends()) {
            out.append("<figure class=\"trend\">").append(svg(trend)).append("</figure>");
        }
        out.append("</div>");
    }

    static String svg(HistoryContext.Trend trend) {
        Metric metric = Metric.byKey(trend.metric()).orElse(null);
        List<HistoryContext.Point> points = trend.points();
        double min = points.stream().mapToDouble(HistoryContext.Point::value).min().orElse(0);
        double max = points.stream().mapToDouble(HistoryContext.Point::value).max().orElse(1);
        if (max == min) {
            max = min + Math.max(Math.abs(min) * 0.05, 1e-9);
        }
        double plotW = FRAME.plotWidth();
        double plotH = FRAME.plotHeight();
        int n = points.size();
        String title = trend.metric() + (trend.phase().isEmpty() ? "" : " (phase " + trend.phase() + ")") + " of '"
                + trend.container() + "', " + n + " builds";
        StringBuilder svg = new StringBuilder();
        FRAME.open(svg, "trend", title, 12);
        svg.append("<text class=\"yl\" x=\"").append(FRAME.left() - 4).append("\" y=\"").append(FRAME.top() + 8)
                .append("\">").append(Html.escape(format(metric, max))).append("</text>")
                .append("<text class=\"yl\" x=\"").append(FRAME.left() - 4).append("\" y=\"").append(FRAME.plotBottom())
                .append("\">").append(Html.escape(format(metric, min))).append("</text>");
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < n; i++) {
            double x = x(i, n, plotW);
            double y = FRAME.top() + plotH * (1 - (points.get(i).value() - min) / (max - min));
            path.append(i == 0 ? "M" : "L").append(num(x)).append(' ').append(num(y));
            HistoryContext.Point p = points.get(i);
            svg.append("<circle cx=\"").append(num(x)).append("\" cy=\"").append(num(y)).append("\" r=\"")
                    .append(i == n - 1 ? "3.5" : "2.5").append("\" class=\"").append(i == n - 1 ? "now" : "build")
                    .append("\"><title>").append(Html.escape("build " + p.build()
                            + p.commit().map(c -> ", commit " + c.substring(0, Math.min(12, c.length()))).orElse("")
                            + ", " + p.at().toString().substring(0, 10) + ": " + format(metric, p.value())))
                    .append("</title></circle>");
        }
        svg.append("<path class=\"trendline\" d=\"").append(path).append("\"/>");
        trend.step().ifPresent(step -> {
            double x = (x(step.index() - 1, n, plotW) + x(step.index(), n, plotW)) / 2;
            svg.append("<line class=\"step\" x1=\"").append(num(x)).append("\" x2=\"").append(num(x))
                    .append("\" y1=\"").append(FRAME.top()).append("\" y2=\"").append(FRAME.plotBottom()).append("\"/>")
                    .append("<text class=\"xl\" x=\"")
                    .append(num(Math.min(Math.max(x, FRAME.left() + 60), FRAME.width() - 80)))
                    .append("\" y=\"").append(FRAME.height() - 2).append("\">")
                    .append(Html.escape(String.format(Locale.ROOT, "step %+.1f %% at ", step.effectPercent())
                            + step.build())).append("</text>");
        });
        return svg.append("</svg>").toString();
    }

    private static double x(int i, int n, double plotW) {
        return FRAME.left() + (n == 1 ? plotW / 2 : plotW * i / (n - 1));
    }

    private static String format(Metric metric, double value) {
        return metric == null ? String.format(Locale.ROOT, "%.3g", value) : metric.format(value);
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
