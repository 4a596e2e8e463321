package io.vitals.internal.report.markdown;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The footnotes of summary.md's "not measured here" cells: one per distinct reason, numbered in order of first
 * use, so a table of many rows with the same cause (every block write on a cgroup v1 host) says it once. A table
 * cell has no room for a sentence, and Markdown has no hover.
 */
final class NotMeasuredNotes {

    private final Map<String, Integer> numbers = new LinkedHashMap<>();

    /** The footnote reference for {@code reason}: {@code [^nm1]}. */
    String reference(String reason) {
        return "[^nm" + numbers.computeIfAbsent(reason, r -> numbers.size() + 1) + "]";
    }

    /** The footnotes used so far, one line each ({@code [^nm1]: cgroup v1 …}); nothing when none was used. */
    void appendTo(StringBuilder out) {
        numbers.forEach((reason, number) -> out.append("[^nm").append(number).append("]: ")
                .append(MarkdownSummary.cell(reason)).append('\n'));
        if (!numbers.isEmpty()) {
            out.append('\n');
        }
    }
}
