package io.vitals.internal.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * An inline SVG line chart over test time: series, horizontal reference lines (limits, budgets) and vertical marks
 * (phases, an OOM kill). Each series is downsampled to {@value #MAX_POINTS} points and drawn as one path of
 * relative whole-pixel steps, which keeps a chart to a few kilobytes.
 */
final class LineChart {

    static final int MAX_POINTS = 300;

    private static final ChartFrame FRAME = new ChartFrame(600, 170, 70, 12, 22, 20);

    private record Series(String label, String css, double[] x, double[] y) {
    }

    private record Mark(String label, String css, double value) {
    }

    private final String title;
    private final DoubleFunction<String> format;
    private final List<Series> series = new ArrayList<>();
    private final List<Mark> horizontal = new ArrayList<>();
    private final List<Mark> vertical = new ArrayList<>();

    /**
     * @param format how a y value is labelled, e.g. "512.0 MiB"
     */
    LineChart(String title, DoubleFunction<String> format) {
        this.title = title;
        this.format = format;
    }

    LineChart series(String label, String css, double[] xSeconds, double[] y) {
        series.add(new Series(label, css, xSeconds, y));
        return this;
    }

    LineChart horizontal(String label, String css, double value) {
        horizontal.add(new Mark(label, css, value));
        return this;
    }

    LineChart vertical(String label, String css, double seconds) {
        vertical.add(new Mark(label, css, seconds));
        return this;
    }

    /**
     * The y scale is the data's: a reference line (a limit, a budget) is drawn only within {@value #MARK_REACH}
     * times the data's highest value, and named above the plot otherwise. Scaled to a 2 GiB limit, a 96 MiB curve
     * was a flat line along the bottom.
     */
    static final double MARK_REACH = 2.0;

    /** The top of the y axis: the data's highest value (or the highest line drawn) with room above it. */
    double top() {
        double dataMax = 0;
        for (Series s : series) {
            for (double y : s.y) {
                dataMax = Math.max(dataMax, y);
            }
        }
        double maxY = dataMax;
        for (Mark m : horizontal) {
            if (drawn(m, dataMax)) {
                maxY = Math.max(maxY, m.value);
            }
        }
        // Headroom above the highest line keeps the phase labels along the top clear of the limit labels.
        return maxY <= 0 ? 1 : maxY * 1.2;
    }

    // Without data above zero there is no scale of its own: every line is drawn, as the only thing to see.
    private static boolean drawn(Mark m, double dataMax) {
        return dataMax <= 0 || m.value <= dataMax * MARK_REACH;
    }

    void render(StringBuilder out) {
        double maxX = 0.001;
        double dataMax = 0;
        for (Series s : series) {
            for (double x : s.x) {
                maxX = Math.max(maxX, x);
            }
            for (double y : s.y) {
                dataMax = Math.max(dataMax, y);
            }
        }
        for (Mark m : vertical) {
            maxX = Math.max(maxX, m.value);
        }
        double maxY = top();
        List<Mark> onScale = new ArrayList<>();
        List<String> offScale = new ArrayList<>();
        for (Mark m : horizontal) {
            if (drawn(m, dataMax)) {
                onScale.add(m);
            } else {
                offScale.add(m.label);
            }
        }
        double plotW = FRAME.plotWidth();
        double plotH = FRAME.plotHeight();
        double sx = plotW / maxX;
        double sy = plotH / maxY;

        FRAME.open(out, "chart", title, 14);
        // Grid and y labels at 0, ½ and 1 of the scale.
        for (int i = 0; i <= 2; i++) {
            double value = maxY * i / 2;
            long y = Math.round(FRAME.top() + plotH - value * sy);
            out.append("<line class=\"grid\" x1=\"").append(FRAME.left()).append("\" x2=\"").append(FRAME.plotRight())
                    .append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/>");
            out.append("<text class=\"yl\" x=\"").append(FRAME.left() - 4).append("\" y=\"").append(y + 4).append("\">")
                    .append(Html.escape(format.apply(value))).append("</text>");
        }
        for (int i = 0; i <= 4; i++) {
            double seconds = maxX * i / 4;
            long x = Math.round(FRAME.left() + seconds * sx);
            // The last label ends at the right edge instead of being cut by it.
            out.append("<text class=\"xl").append(i == 4 ? " end" : "").append("\" x=\"").append(x).append("\" y=\"")
                    .append(FRAME.height() - 5).append("\">")
                    .append(AxisLabels.seconds(seconds)).append("</text>");
        }
        if (!offScale.isEmpty()) {
            // far above the data: named, not drawn, so that the data keeps the height of the chart; on the title's
            // line where no legend is (one series), clear of the phase names along the top of the plot
            out.append("<text class=\"ml m-off\" x=\"").append(FRAME.plotRight() - 2).append("\" y=\"")
                    .append(series.size() > 1 ? FRAME.top() + 9 : 14)
                    .append("\">").append(Html.escape("above the scale: " + String.join(" · ", offScale)))
                    .append("</text>");
        }
        for (Mark m : onScale) {
            long y = Math.round(FRAME.top() + plotH - m.value * sy);
            out.append("<line class=\"").append(m.css).append("\" x1=\"").append(FRAME.left()).append("\" x2=\"")
                    .append(FRAME.plotRight()).append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/>");
            out.append("<text class=\"ml ").append(m.css).append("\" x=\"").append(FRAME.plotRight() - 2)
                    .append("\" y=\"").append(y - 3).append("\">").append(Html.escape(m.label)).append("</text>");
        }
        for (Mark m : vertical) {
            long x = Math.round(FRAME.left() + m.value * sx);
            out.append("<line class=\"").append(m.css).append("\" x1=\"").append(x).append("\" x2=\"").append(x)
                    .append("\" y1=\"").append(FRAME.top()).append("\" y2=\"").append(FRAME.top() + (long) plotH)
                    .append("\"/>");
            // Phase names along the top; a fault near the bottom, so it does not cover the phase or limit labels.
            long labelY = m.css.equals("m-oom") ? FRAME.top() + (long) plotH - 4 : FRAME.top() + 9;
            out.append("<text class=\"vl ").append(m.css).append("\" x=\"").append(x + 3).append("\" y=\"")
                    .append(labelY).append("\">").append(Html.escape(m.label)).append("</text>");
        }
        int legendX = FRAME.plotRight();
        for (int s = series.size() - 1; s >= 0; s--) {
            Series line = series.get(s);
            path(out, line, sx, sy, plotH);
            if (series.size() > 1) {
                out.append("<text class=\"lg ").append(line.css).append("\" x=\"").append(legendX).append("\" y=\"14\">")
                        .append(Html.escape(line.label)).append("</text>");
                legendX -= 8 * line.label.length() + 14;
            }
        }
        out.append("</svg>");
    }

    private static void path(StringBuilder out, Series line, double sx, double sy, double plotH) {
        if (line.y.length == 0) {
            return;
        }
        int[] keep = Downsampler.indices(line.y, MAX_POINTS);
        out.append("<path class=\"").append(line.css).append("\" d=\"");
        long px = 0;
        long py = 0;
        int drawn = 0;
        for (int i : keep) {
            long x = Math.round(FRAME.left() + line.x[i] * sx);
            long y = Math.round(FRAME.top() + plotH - line.y[i] * sy);
            if (drawn == 0) {
                out.append('M').append(x).append(' ').append(y);
            } else if (x != px || y != py) {
                out.append('l').append(x - px);
                if (y - py >= 0) {
                    out.append(' ');
                }
                out.append(y - py);
            }
            px = x;
            py = y;
            drawn++;
        }
        out.append("\"/>");
    }
}
