package io.vitals.assertions;

import org.assertj.core.error.BasicErrorMessageFactory;

/**
 * "Expecting block write of the container to be checked against: 1MiB but this host cannot measure it: …". An
 * assertion on a figure nobody counted would pass or fail by accident (cgroup v1 reports 0 B of writes for a
 * container that wrote 64 MiB), so it fails and says how to check it only where it can be counted.
 */
final class ShouldBeMeasurable extends BasicErrorMessageFactory {

    private ShouldBeMeasurable(String format, Object... arguments) {
        super(format, arguments);
    }

    static ShouldBeMeasurable shouldBeMeasurable(String label, String limit, String reason) {
        // the values go into the format unquoted (AssertJ would quote them as strings), so escape their '%'
        return new ShouldBeMeasurable("%nExpecting " + escaped(label) + " to be checked against:%n  " + escaped(limit)
                + "%nbut this host cannot measure it:%n  " + escaped(reason) + "%nAssert it where it can be counted "
                + "with whereMeasurable(), which skips such checks, or set it as a @ResourceBudget, which the reports "
                + "mark \"not measurable here\"");
    }

    private static String escaped(String text) {
        return text.replace("%", "%%");
    }
}
