package io.vitals.assertions;

import java.util.List;

import org.assertj.core.error.BasicErrorMessageFactory;

/** "Expecting the test to have marked phase: "warmup" but it marked only: ["load", "train"]". */
final class ShouldHavePhase extends BasicErrorMessageFactory {

    private ShouldHavePhase(String format, Object... arguments) {
        super(format, arguments);
    }

    static ShouldHavePhase shouldHavePhase(String name, List<String> marked) {
        if (marked.isEmpty()) {
            return new ShouldHavePhase("%nExpecting the test to have marked phase:%n  %s%nbut it marked no phase"
                    + " (ResourceMonitor.mark(String) starts one)", name);
        }
        return new ShouldHavePhase("%nExpecting the test to have marked phase:%n  %s%nbut it marked only:%n  %s",
                name, marked);
    }
}
