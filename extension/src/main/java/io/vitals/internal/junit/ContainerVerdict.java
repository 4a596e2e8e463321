package io.vitals.internal.junit;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetEvaluator;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.budget.Limit;
import io.vitals.internal.budget.Measurability;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.Overlap;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one test's budgets say about one container: every check (passed or not, phases included) and any fault.
 *
 * @param container the measured container
 * @param usage its usage over the test
 * @param judged every budget result, with the usage it was judged against
 * @param fault an OOM kill, exit or the engine gone, if any
 * @param oomAllowed whether the budget allowed an OOM kill
 */
record ContainerVerdict(MeasuredContainer container, ResourceUsage usage, List<Judged> judged,
        Optional<ContainerFault> fault, boolean oomAllowed) {

    /**
     * One budget result.
     *
     * @param subject the usage it was judged against: the test's, or its phase's
     * @param result the outcome, naming its phase if it has one
     */
    record Judged(ResourceUsage subject, BudgetResult result) {

        /** One line for a failure message; a phase budget's line names its phase. */
        String breachLine() {
            return result.phase().map(p -> "phase '" + p + "': ").orElse("")
                    + BudgetEvaluator.describeBreach(result, subject);
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
                budget.limits().forEach(limit -> judged.add(new Judged(usage,
                        Measurability.apply(BudgetEvaluator.evaluate(limit, usage), usage, strict))));
                continue;
            }
            String phase = budget.phase().get();
            Optional<ResourceUsage> marked = usage.phase(phase).map(ResourceUsage.Phase::usage);
            for (Limit limit : budget.limits()) {
                BudgetResult result = marked.map(p -> Measurability.apply(BudgetEvaluator.evaluate(limit, p), p,
                                strict).inPhase(phase))
                        .orElseGet(() -> BudgetResult.unknown(limit, budget.phase(), "phase never marked",
                                "the test never called mark(\"" + phase + "\")"));
                judged.add(new Judged(marked.orElse(usage), result));
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

    /** Every budget result, phases' included. */
    List<BudgetResult> results() {
        return judged.stream().map(Judged::result).toList();
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
        return judged.stream().filter(j -> !j.result().passed()).map(Judged::breachLine).toList();
    }
}
