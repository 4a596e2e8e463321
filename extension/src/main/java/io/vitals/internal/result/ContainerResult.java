package io.vitals.internal.result;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.vitals.ResourceUsage;
import io.vitals.internal.budget.BudgetResult;
import io.vitals.internal.probe.HostShape;

import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * One container's part in one test.
 *
 * @param name the container's field name
 * @param image the image
 * @param limits the limits it ran under
 * @param usage what it used (its probe, interval, snapshots, timeline and phases included)
 * @param probeDescription where the figures came from, in words
 * @param hostShape the host shape they were measured on: a row of docs/metrics.md's exactness table
 * @param measuredFromStart whether the test's window began when the container started (a container started by
 *     the test), which decides the peak's column of that table
 * @param budgets every budget checked against it, passed or not
 * @param fault an OOM kill or exit during the test, if any
 * @param logTail the last lines of its log, kept when the test failed or the container faulted
 * @param overlap the other tests that measured the same container at the same time, whose usage these figures
 *     include; none for a container the test had to itself
 */
@API(status = INTERNAL, since = "0.1")
public record ContainerResult(
        String name,
        String image,
        ContainerLimits limits,
        ResourceUsage usage,
        String probeDescription,
        HostShape hostShape,
        boolean measuredFromStart,
        List<BudgetResult> budgets,
        Optional<ContainerFault> fault,
        List<String> logTail,
        Overlap overlap) {

    public ContainerResult {
        budgets = List.copyOf(budgets);
        logTail = List.copyOf(logTail);
    }

    /** A container result whose window was alone on the container. */
    public ContainerResult(String name, String image, ContainerLimits limits, ResourceUsage usage,
            String probeDescription, HostShape hostShape, boolean measuredFromStart, List<BudgetResult> budgets,
            Optional<ContainerFault> fault, List<String> logTail) {
        this(name, image, limits, usage, probeDescription, hostShape, measuredFromStart, budgets, fault, logTail,
                Overlap.none());
    }

    /**
     * Whether these figures are this test's alone: false when another test's window on the container overlapped,
     * and then no history, baseline or suggestion takes them.
     */
    public boolean isAttributable() {
        return !overlap.isPresent();
    }

    /** Which cell of the exactness table applied to each figure; derived, so it cannot disagree with the usage. */
    public Exactness exactness() {
        return Exactness.of(usage, measuredFromStart);
    }
}
