package io.vitals.internal.junit;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.report.BudgetCheck;
import io.vitals.internal.report.ContainerFault;
import io.vitals.internal.report.Overlap;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one test's budgets say about one container: every check (passed or not, phases included) and any fault.
 *
 * @param container the measured container
 * @param usage its usage over the test
 * @param judged every budget check, with the phase it was checked against and that phase's usage
 * @param fault an OOM kill, exit or the engine gone, if any
 * @param oomAllowed whether the budget allowed an OOM kill
 */
record ContainerVerdict(MeasuredContainer container, ResourceUsage usage, List<Judged> judged,
        Optional<ContainerFault> fault, boolean oomAllowed) {

    /**
     * One budget check.
     *
     * @param phase the phase it applies to, empty for the whole test
     * @param subject the usage it was checked against: the test's, or the phase's
     * @param check the outcome, its attribute without the phase
     */
    record Judged(Optional<String> phase, ResourceUsage subject, BudgetCheck check) {

        /** The check as reports show it: a phase budget's attribute names its phase, e.g. {@code cpuTime[train]}. */
        BudgetCheck forReport() {
            if (phase.isEmpty()) {
                return check;
            }
            return new BudgetCheck(check.attribute() + "[" + phase.get() + "]", check.limit(), check.limitValue(),
                    check.actual(), check.actualValue(), check.passed(), check.marginPercent(), check.method(),
                    check.at(), check.note());
        }

        /** One line for a failure message; a phase budget's line names its phase. */
        String breachLine() {
            return phase.map(p -> "phase '" + p + "': ").orElse("") + BudgetEvaluator.describeBreach(check, subject);
        }
    }

    /**
     * Judges one container; {@code engineLoss} is the engine found gone during the test: that is then the
     * container's fault, and its state is not asked of the engine (which would not answer).
     */
    static ContainerVerdict judge(MeasuredContainer container, ResourceUsage usage, BudgetPlan plan,
            boolean strict, Optional<EngineLoss> engineLoss) {
        List<Judged> judged = new ArrayList<>();
        for (BudgetPlan.ContainerBudget budget : plan.budgets()) {
            if (!budget.container().equals(container.name())) {
                continue;
            }
            if (budget.phase().isEmpty()) {
                budget.limits().forEach(limit -> judged.add(new Judged(Optional.empty(), usage,
                        Measurability.apply(BudgetEvaluator.evaluate(limit, usage), limit.metric(), usage, strict))));
                continue;
            }
            String phase = budget.phase().get();
            Optional<ResourceUsage> marked = usage.phase(phase).map(ResourceUsage.Phase::usage);
            for (Limit limit : budget.limits()) {
                BudgetCheck check = marked.map(p -> Measurability.apply(BudgetEvaluator.evaluate(limit, p),
                                limit.metric(), p, strict))
                        .orElseGet(() -> new BudgetCheck(limit.metric().attribute(), limit.text(), limit.value(),
                                "unknown", Double.NaN, false, OptionalDouble.empty(), "phase never marked",
                                Optional.empty(), Optional.of("the test never called mark(\"" + phase + "\")")));
                judged.add(new Judged(budget.phase(), marked.orElse(usage), check));
            }
        }
        Optional<ContainerFault> fault = engineLoss.map(loss -> loss.fault(container, usage))
                .or(() -> FaultInspector.inspect(container, usage));
        return new ContainerVerdict(container, usage, List.copyOf(judged), fault,
                plan.allowsOomKill(container.name()));
    }

    /** Whether the engine went away during the test: its containers can be neither inspected nor removed. */
    boolean engineGone() {
        return fault.filter(f -> f.kind() == ContainerFault.Kind.ENGINE_GONE).isPresent();
    }

    /** Every check as reports show it. */
    List<BudgetCheck> checks() {
        return judged.stream().map(Judged::forReport).toList();
    }

    /** A fault that fails the test: any exit, the engine gone, and an OOM kill unless the budget allows it. */
    Optional<ContainerFault> failingFault() {
        return fault.filter(f -> f.kind() != ContainerFault.Kind.OOM_KILL || !oomAllowed);
    }

    /**
     * The other tests whose windows on this container were open during this test's: their usage is in these
     * figures. The budgets are judged all the same (the figures are real); the message says why they may be high.
     */
    Overlap overlap() {
        return new Overlap(container.window().overlappedWith().stream()
                .map(owner -> new Overlap.OverlappedTest(owner.displayName(), owner.className())).toList());
    }

    /** Breach lines for a failure message, one per budget, phase budgets naming their phase. */
    List<String> breachLines() {
        return judged.stream().filter(j -> !j.check().passed()).map(Judged::breachLine).toList();
    }
}
