package io.vitals.internal.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/** A horizontal inline SVG bar chart: one bar per parameter set of a parameterized test. */
final class BarChart {

    private static final int WIDTH = 420;
    private static final int LABEL = 150;
    private static final int ROW = 18;

    private record Bar(String label, double value) {
    }

    private final String title;
    private final DoubleFunction<String> format;
    private final List<Bar> bars = new ArrayList<>();

    BarChart(String title, DoubleFunction<String> format) {
        this.title = title;
        this.format = format;
    }

    BarChart bar(String label, double value) {
        bars.add(new Bar(label, value));
        return this;
    }

    void render(StringBuilder out) {
        double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
        max = max <= 0 ? 1 : max;
        int height = 24 + bars.size() * ROW;
        double plot = WIDTH - LABEL - 80;
        out.append("<svg class=\"bars\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">");
        out.append("<text class=\"ct\" x=\"4\" y=\"14\">").append(Html.escape(title)).append("</text>");
        int y = 24;
        for (Bar bar : bars) {
            long w = Math.max(1, Math.round(bar.value / max * plot));
            String label = bar.label.length() > 24 ? bar.label.substring(0, 23) + "…" : bar.label;
            out.append("<text class=\"bl\" x=\"").append(LABEL - 4).append("\" y=\"").append(y + 12).append("\">")
                    .append(Html.escape(label)).append("<title>").append(Html.escape(bar.label))
                    .append("</title></text>");
            out.append("<rect x=\"").append(LABEL).append("\" y=\"").append(y + 2).append("\" width=\"").append(w)
                    .append("\" height=\"").append(ROW - 5).append("\"/>");
            out.append("<text class=\"bv\" x=\"").append(LABEL + w + 4).append("\" y=\"").append(y + 12).append("\">")
                    .append(Html.escape(format.apply(bar.value))).append("</text>");
            y += ROW;
        }
        out.append("</svg>");
    }
}
