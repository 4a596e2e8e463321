package io.vitals.internal.report.console;

import java.util.List;

/**
 * Lays rows out as docker's tabwriter does (minimum width 10, padding 3, the last column not padded), so that the
 * tables line up with what people already read from {@code docker stats}.
 */
final class TabLayout {

    static final int MIN_WIDTH = 10;
    static final int PADDING = 3;

    private TabLayout() {
    }

    /** The width of each column of {@code rows}; rows may be shorter than the first. */
    static int[] widths(List<List<String>> rows) {
        int[] widths = new int[rows.get(0).size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], Math.max(MIN_WIDTH, row.get(i).length() + PADDING));
            }
        }
        return widths;
    }

    /** The length of the longest line {@link #render} would print for {@code rows}. */
    static int longestLine(List<List<String>> rows) {
        int[] widths = widths(rows);
        int longest = 0;
        for (List<String> row : rows) {
            int length = 0;
            for (int i = 0; i < row.size() - 1; i++) {
                length += widths[i];
            }
            longest = Math.max(longest, length + row.get(row.size() - 1).length());
        }
        return longest;
    }

    /** The rows, one line each, ending in a line break, without trailing blanks. */
    static String render(List<List<String>> rows) {
        int[] widths = widths(rows);
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length()));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
