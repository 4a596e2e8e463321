package io.vitals.internal.regression.suggest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("BudgetSuggestion: grouped per test and per annotation line, in the order first seen")
class BudgetSuggestionTests {

    private static final BudgetSuggestion T1_TF_CPU = suggestion("t1", "tf", "", "cpuTime");
    private static final BudgetSuggestion T2_DB_CPU = suggestion("t2", "db", "", "cpuTime");
    private static final BudgetSuggestion T1_TF_LOAD = suggestion("t1", "tf", "load", "cpuTime");
    private static final BudgetSuggestion T1_TF_MEMORY = suggestion("t1", "tf", "", "peakMemory");
    private static final List<BudgetSuggestion> INTERLEAVED = List.of(T1_TF_CPU, T2_DB_CPU, T1_TF_LOAD,
            T1_TF_MEMORY);

    private static BudgetSuggestion suggestion(String test, String container, String phase, String attribute) {
        return new BudgetSuggestion(test, container, phase, attribute, "1s", 1.0, "basis", 5, "tb-1");
    }

    @Test
    @DisplayName("one list per container and phase, each in the order given")
    void perAnnotation() {
        List<BudgetSuggestion> t1 = List.of(T1_TF_CPU, T1_TF_LOAD, T1_TF_MEMORY);

        assertThat(BudgetSuggestion.perAnnotation(t1))
                .containsExactly(List.of(T1_TF_CPU, T1_TF_MEMORY), List.of(T1_TF_LOAD));
        assertThat(BudgetSuggestion.annotation(BudgetSuggestion.perAnnotation(t1).get(0)))
                .isEqualTo("@ResourceBudget(container = \"tf\", cpuTime = \"1s\", peakMemory = \"1s\")");
        assertThat(BudgetSuggestion.perAnnotation(List.of())).isEmpty();
    }

    @Test
    @DisplayName("tests in the order each first appears, each grouped per annotation line")
    void perTest() {
        assertThat(BudgetSuggestion.perTest(INTERLEAVED)).containsExactly(
                entry("t1", List.of(List.of(T1_TF_CPU, T1_TF_MEMORY), List.of(T1_TF_LOAD))),
                entry("t2", List.of(List.of(T2_DB_CPU))));
    }
}
