package io.vitals.internal.junit;

import io.vitals.internal.budget.Limit;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.metric.Direction;
import io.vitals.internal.metric.Metric;
import io.vitals.internal.metric.Resource;
import io.vitals.internal.metric.Unit;
import io.vitals.internal.result.ContainerLimits;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Warns of budgets a container's own limits keep it from ever breaking: a {@code peakMemory = "2GiB"} on a
 * container started with {@code --memory 512m} (the kernel reclaims or OOM-kills before the working set gets
 * there), a {@code peakPids} above its {@code --pids-limit}. Such a budget passes whatever the code does, which is
 * what a reader of the green build would not guess. Once per test class and container, so that a class of fifty
 * tests says it once; held in the class's store.
 */
final class UnreachableBudgets {

    private static final UserLog LOG = UserLog.named(UserLog.TEST);

    private final String testClass;
    private final Consumer<String> warnings;
    private final Set<String> warned = new HashSet<>();

    UnreachableBudgets(String testClass) {
        this(testClass, LOG::warn);
    }

    UnreachableBudgets(String testClass, Consumer<String> warnings) {
        this.testClass = testClass;
        this.warnings = warnings;
    }

    /** Warns about {@code container}'s budgets in {@code plan} above its {@code limits}, unless this class did. */
    void check(String container, ContainerLimits limits, BudgetPlan plan) {
        List<String> lines = lines(container, limits, plan);
        synchronized (warned) {
            if (lines.isEmpty() || !warned.add(container)) {
                return;
            }
        }
        warnings.accept(String.join(System.lineSeparator(), lines));
    }

    /** One sentence per budget that cannot break, naming the budget and the limit. */
    List<String> lines(String container, ContainerLimits limits, BudgetPlan plan) {
        List<String> lines = new ArrayList<>();
        for (BudgetPlan.ContainerBudget budget : plan.budgets()) {
            if (!budget.container().equals(container)) {
                continue;
            }
            for (Limit limit : budget.limits()) {
                ceiling(limit, limits).ifPresent(ceiling -> lines.add("@ResourceBudget(" + limit.metric().attribute()
                        + " = \"" + limit.text() + "\"" + budget.phase().map(p -> ", phase = \"" + p + "\"")
                                .orElse("")
                        + ") on container '" + container + "' of " + testClass + " can never break: " + limit.text()
                        + " is above the container's " + ceiling + ". Set a budget under the limit, or raise it."));
            }
        }
        return lines;
    }

    /** The container's limit that {@code limit} is above, in words; empty when the budget can break. */
    private static Optional<String> ceiling(Limit limit, ContainerLimits limits) {
        Metric metric = limit.metric();
        if (metric.direction() != Direction.CEILING) {
            return Optional.empty();
        }
        if (metric.resource() == Resource.MEMORY && metric.unit() == Unit.SIZE && limits.memory().isPresent()
                && limits.memory().get().toBytes() > 0 && limit.value() > limits.memory().get().toBytes()) {
            // a memory figure of the cgroup cannot pass its memory.max
            return Optional.of("memory limit of " + limits.memory().get() + ", where the kernel reclaims or "
                    + "OOM-kills first");
        }
        if (metric == Metric.PEAK_PIDS && limits.pids().isPresent() && limits.pids().getAsLong() > 0
                && limit.value() > limits.pids().getAsLong()) {
            return Optional.of("pids limit of " + limits.pids().getAsLong());
        }
        return Optional.empty();
    }
}
