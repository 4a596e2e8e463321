package io.vitals.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.DataSize;
import io.vitals.ResourceBudget;
import io.vitals.internal.result.ContainerLimits;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A budget the container's own limits keep from ever breaking is named once per class and container. */
@DisplayName("Budgets above a container's limits")
class UnreachableBudgetsTests {

    private static final ContainerLimits HALF_GIB = new ContainerLimits(Optional.of(DataSize.ofMiB(512)),
            OptionalDouble.empty(), Optional.empty(), OptionalLong.of(64));

    private final List<String> warnings = new ArrayList<>();
    private final UnreachableBudgets budgets = new UnreachableBudgets("ServiceIT", warnings::add);

    @Test
    @DisplayName("peakMemory above --memory warns once, naming the budget and the limit, however many tests check")
    void warnsOncePerContainer() {
        BudgetPlan plan = BudgetPlan.of(TooHigh.class, Optional.empty(), List.of("service"));

        budgets.check("service", HALF_GIB, plan);
        budgets.check("service", HALF_GIB, plan);

        assertThat(warnings).containsExactly("@ResourceBudget(peakMemory = \"2GiB\") on container 'service' of "
                + "ServiceIT can never break: 2GiB is above the container's memory limit of 512.0 MiB, where the "
                + "kernel reclaims or OOM-kills first. Set a budget under the limit, or raise it."
                + System.lineSeparator()
                + "@ResourceBudget(peakPids = \"100\") on container 'service' of ServiceIT can never break: 100 is "
                + "above the container's pids limit of 64. Set a budget under the limit, or raise it.");
    }

    @Test
    @DisplayName("a budget under the limit, a floor, or a container without limits gives no warning")
    void silentWhenTheBudgetCanBreak() {
        budgets.check("service", HALF_GIB, BudgetPlan.of(CanBreak.class, Optional.empty(), List.of("service")));
        budgets.check("service", ContainerLimits.none(),
                BudgetPlan.of(TooHigh.class, Optional.empty(), List.of("service")));

        assertThat(warnings).isEmpty();
    }

    @Test
    @DisplayName("each container of the class gets its own warning")
    void oncePerContainer() {
        budgets.check("service", HALF_GIB, BudgetPlan.of(TooHigh.class, Optional.empty(), List.of("service")));
        budgets.check("other", HALF_GIB, BudgetPlan.of(TooHigh.class, Optional.empty(), List.of("other")));

        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(1)).contains("on container 'other' of ServiceIT");
    }

    @ResourceBudget(peakMemory = "2GiB", peakPids = "100")
    static class TooHigh {
    }

    @ResourceBudget(peakMemory = "512MiB", memoryHeadroom = "20%", peakPids = "64")
    static class CanBreak {
    }
}
