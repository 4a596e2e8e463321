package io.vitals.internal.junit;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.report.BudgetCheck;
import io.vitals.internal.report.ContainerFault;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one test's budgets say about one container: every check (passed or not, phases included) and any fault.
 *
 * @param container the measured container
 * @param usage its usage over the test
 * @param checks every budget check
 * @param fault an OOM kill or exit, if any
 * @param oomAllowed whether the budget allowed an OOM kill
 */
record ContainerVerdict(MeasuredContainer container, ResourceUsage usage, List<BudgetCheck> checks,
        Optional<ContainerFault> fault, boolean oomAllowed) {

    static ContainerVerdict judge(MeasuredContainer container, ResourceUsage usage, BudgetPlan plan) {
        List<BudgetCheck> checks = new ArrayList<>();
        for (BudgetPlan.ContainerBudget budget : plan.budgets()) {
            if (!budget.container().equals(container.name())) {
                continue;
            }
            if (budget.phase().isEmpty()) {
                budget.limits().forEach(limit -> checks.add(BudgetEvaluator.evaluate(limit, usage)));
                continue;
            }
            String phase = budget.phase().get();
            Optional<ResourceUsage.Phase> marked = usage.phase(phase);
            for (Limit limit : budget.limits()) {
                BudgetCheck check = marked.map(p -> BudgetEvaluator.evaluate(limit, p.usage()))
                        .orElseGet(() -> new BudgetCheck(limit.metric().attribute(), limit.text(), limit.value(),
                                "unknown", Double.NaN, false, OptionalDouble.empty(), "phase never marked",
                                Optional.empty(), Optional.of("the test never called mark(\"" + phase + "\")")));
                checks.add(withPhase(check, phase));
            }
        }
        return new ContainerVerdict(container, usage, checks, FaultInspector.inspect(container, usage),
                plan.allowsOomKill(container.name()));
    }

    private static BudgetCheck withPhase(BudgetCheck check, String phase) {
        return new BudgetCheck(check.attribute() + "[" + phase + "]", check.limit(), check.limitValue(),
                check.actual(), check.actualValue(), check.passed(), check.marginPercent(), check.method(),
                check.at(), check.note());
    }

    List<BudgetCheck> breaches() {
        return checks.stream().filter(check -> !check.passed()).toList();
    }

    /** A fault that fails the test: any exit, and an OOM kill unless the budget allows it. */
    Optional<ContainerFault> failingFault() {
        return fault.filter(f -> f.kind() != ContainerFault.Kind.OOM_KILL || !oomAllowed);
    }

    /** Breach lines for a failure message, one per budget, phase budgets naming their phase. */
    List<String> breachLines() {
        List<String> lines = new ArrayList<>();
        for (BudgetCheck check : breaches()) {
            String attribute = check.attribute();
            int bracket = attribute.indexOf('[');
            ResourceUsage subject = usage;
            String prefix = "";
            if (bracket > 0) {
                String phase = attribute.substring(bracket + 1, attribute.length() - 1);
                prefix = "phase '" + phase + "': ";
                subject = usage.phase(phase).map(ResourceUsage.Phase::usage).orElse(usage);
                check = new BudgetCheck(attribute.substring(0, bracket), check.limit(), check.limitValue(),
                        check.actual(), check.actualValue(), check.passed(), check.marginPercent(), check.method(),
                        check.at(), check.note());
            }
            lines.add(prefix + BudgetEvaluator.describeBreach(check, subject));
        }
        return lines;
    }
}
