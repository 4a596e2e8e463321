package io.vitals.internal.report.html;

/**
 * The frame of an inline SVG chart: its size, and the margins around the plot that hold the title and the axis
 * labels. The line charts of a test and the trend charts of a regression differ only in these figures.
 *
 * @param width the chart's width, in SVG units
 * @param height the chart's height
 * @param left the margin left of the plot, for the y labels
 * @param right the margin right of the plot
 * @param top the margin above the plot, for the title
 * @param bottom the margin below the plot, for the x labels
 */
record ChartFrame(int width, int height, int left, int right, int top, int bottom) {

    double plotWidth() {
        return width - left - right;
    }

    double plotHeight() {
        return height - top - bottom;
    }

    /** Where the plot ends on the right, and the reference lines with it. */
    int plotRight() {
        return width - right;
    }

    /** Where the plot ends at the bottom. */
    int plotBottom() {
        return height - bottom;
    }

    /** Opens the chart: {@code <svg>} of its size, named by {@code title} for screen readers, and the title. */
    void open(StringBuilder out, String css, String title, int titleY) {
        out.append("<svg class=\"").append(css).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" role=\"img\" aria-label=\"").append(Html.escape(title)).append("\">")
                .append("<text class=\"ct\" x=\"").append(left).append("\" y=\"").append(titleY).append("\">")
                .append(Html.escape(title)).append("</text>");
    }
}
