package io.vitals.internal.junit;

import io.vitals.ContainerFaultError;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.ResourceUsage;
import io.vitals.internal.junit.engine.EngineHeartbeat;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.result.ContainerFault;
import io.vitals.internal.result.ContainerResult;
import io.vitals.internal.result.TestResult;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.opentest4j.TestAbortedException;

/**
 * The verdict on one test: computed once, when its windows close, and read for the error it fails with and for the
 * reports.
 */
final class Judgement {

    private final BudgetPlan plan;
    private final boolean strict;
    private final Instant startedAt;
    private List<ContainerVerdict> verdicts;
    private Optional<String> faultMessage;
    private final Map<String, List<String>> logTails = new HashMap<>();

    private final List<FailFastGuard> guards;
    private final EngineHeartbeat engine;

    Judgement(BudgetPlan plan, boolean strict, Instant startedAt, List<FailFastGuard> guards,
            EngineHeartbeat engine) {
        this.engine = engine;
        this.plan = plan;
        this.strict = strict;
        this.startedAt = startedAt;
        this.guards = List.copyOf(guards);
    }

    /** Whether a fail-fast guard ended the test early. */
    boolean endedEarly() {
        return guards.stream().anyMatch(guard -> guard.breach().isPresent());
    }

    /** Judges the test once; {@code thrown} is what the test threw, a hint that the engine may be gone. */
    synchronized void judge(TestMeasurement measurement, Optional<Throwable> thrown) {
        if (verdicts != null) {
            return;
        }
        Map<String, ResourceUsage> usages = measurement.finish();
        boolean looksWrong = measurement.containers().stream()
                .anyMatch(c -> FaultInspector.looksWrong(c, usages.get(c.name())));
        Optional<EngineLoss> engineLoss = measurement.containers().isEmpty() ? Optional.empty()
                : EngineLoss.check(engine, startedAt, thrown, looksWrong);
        List<ContainerVerdict> judged = new ArrayList<>();
        for (MeasuredContainer container : measurement.containers()) {
            judged.add(ContainerVerdict.judge(container, usages.get(container.name()), plan, strict, engineLoss));
        }
        verdicts = List.copyOf(judged);
    }

    /** The error for faults that fail the test: OOM kills (unless allowed) and exits, with their evidence. */
    synchronized Optional<ContainerFaultError> faultError() {
        if (faultMessage == null) {
            faultMessage = describeFaults(); // reads container logs: once
        }
        return faultMessage.map(ContainerFaultError::new);
    }

    private Optional<String> describeFaults() {
        List<ContainerVerdict> faulty = verdicts.stream().filter(v -> v.failingFault().isPresent()).toList();
        if (faulty.isEmpty()) {
            return Optional.empty();
        }
        List<FaultEvidence> evidence = new ArrayList<>();
        for (ContainerVerdict verdict : faulty) {
            ContainerFault fault = verdict.failingFault().get();
            evidence.add(new FaultEvidence(fault.description(), verdict.breachLines(),
                    FaultInspector.lastSamples(verdict.usage(), fault), logTail(verdict)));
        }
        return Optional.of(faultMessage(evidence));
    }

    /**
     * What one faulty container contributes to the message.
     *
     * @param description the fault's sentence
     * @param breachLines the container's broken budgets
     * @param lastSamples the last samples, one line each, each ending in a line break
     * @param log the last lines of its log
     */
    record FaultEvidence(String description, List<String> breachLines, String lastSamples, List<String> log) {
    }

    /**
     * The message of a {@link ContainerFaultError}: its first line is the first fault's description, because that
     * line is all a stack trace, a test report's one-line summary or an IDE's tree shows; the evidence follows,
     * and a blank line separates the containers.
     */
    static String faultMessage(List<FaultEvidence> faults) {
        String newline = System.lineSeparator();
        StringBuilder message = new StringBuilder();
        for (FaultEvidence fault : faults) {
            if (message.length() > 0) {
                message.append(newline);
            }
            message.append(fault.description().strip()).append(newline);
            fault.breachLines().forEach(line -> message.append("  - ").append(line).append(newline));
            message.append("Last samples:").append(newline).append(fault.lastSamples());
            message.append("Last ").append(fault.log().size()).append(" lines of the container's log:")
                    .append(newline);
            fault.log().forEach(line -> message.append("  | ").append(line).append(newline));
        }
        return message.toString().strip();
    }

    /**
     * The container's log tail, fetched from the engine once however often messages and reports need it; not
     * asked of an engine found gone (a hung one could hold the test for docker-java's timeouts).
     */
    private List<String> logTail(ContainerVerdict verdict) {
        if (verdict.engineGone()) {
            return List.of("(no log: the Docker engine does not answer)");
        }
        return logTails.computeIfAbsent(verdict.container().name(),
                name -> FaultInspector.logTail(verdict.container()));
    }

    /** The containers left on an engine that went away during the test, to be removed when it is back. */
    synchronized List<MeasuredContainer> strandedContainers() {
        return verdicts.stream().filter(ContainerVerdict::engineGone).map(ContainerVerdict::container).toList();
    }

    /**
     * The error for budget breaches and baseline regressions, all listed together; empty when none.
     *
     * @param regression the comparison with the baseline or history, when one was made: it adds its message when
     *     {@link RegressionVerdict#failsTest()}
     */
    synchronized Optional<ResourceBudgetExceededError> budgetError(Optional<RegressionVerdict> regression) {
        StringBuilder message = new StringBuilder();
        guards.forEach(guard -> guard.breach().ifPresent(breach -> message.append("Ended early: ").append(breach)
                .append(System.lineSeparator())));
        for (ContainerVerdict verdict : verdicts) {
            List<String> lines = verdict.breachLines();
            if (lines.isEmpty()) {
                continue;
            }
            message.append("Resource budget exceeded by container '").append(verdict.container().name())
                    .append("' (").append(verdict.usage().image()).append("):").append(System.lineSeparator());
            lines.forEach(line -> message.append("  - ").append(line).append(System.lineSeparator()));
            if (verdict.overlap().isPresent()) {
                message.append("  (").append(verdict.overlap().sentence(verdict.container().name())).append(")")
                        .append(System.lineSeparator());
            }
        }
        regression.filter(RegressionVerdict::failsTest)
                .ifPresent(verdict -> message.append(verdict.message()).append(System.lineSeparator()));
        return message.length() == 0 ? Optional.empty()
                : Optional.of(new ResourceBudgetExceededError(message.toString().stripTrailing()));
    }

    /**
     * What the test measured, judged on its budgets and faults alone: the input of the comparison with the baseline
     * or history, whose verdict then goes into {@link #result}.
     */
    synchronized TestResult measured(TestIdentity test, Optional<Throwable> thrown) {
        return result(test, thrown, Optional.empty());
    }

    /** The result for the reports of the test {@code test}, which threw {@code thrown}, with its regression verdict. */
    synchronized TestResult result(TestIdentity test, Optional<Throwable> thrown, RegressionVerdict regression) {
        return result(test, thrown, Optional.of(regression));
    }

    private TestResult result(TestIdentity test, Optional<Throwable> thrown, Optional<RegressionVerdict> regression) {
        boolean failsHere = faultError().isPresent() || budgetError(regression).isPresent();
        TestResult.Outcome outcome = thrown.filter(TestAbortedException.class::isInstance).isPresent()
                ? TestResult.Outcome.ABORTED
                : thrown.isPresent() || failsHere ? TestResult.Outcome.FAILED : TestResult.Outcome.PASSED;
        Optional<String> failure = thrown.map(Throwable::getMessage)
                .or(() -> faultError().map(Throwable::getMessage))
                .or(() -> budgetError(regression).map(Throwable::getMessage));
        List<ContainerResult> containers = new ArrayList<>();
        for (ContainerVerdict verdict : verdicts) {
            boolean keepLog = verdict.fault().isPresent() || outcome == TestResult.Outcome.FAILED;
            containers.add(new ContainerResult(verdict.container().name(), verdict.usage().image(),
                    verdict.container().limits(), verdict.usage(), verdict.container().watch().probe().describe(),
                    verdict.container().watch().probe().hostShape(), verdict.container().window().fromContainerStart(),
                    verdict.results(), verdict.fault(),
                    keepLog ? logTail(verdict) : List.of(), verdict.overlap()));
        }
        return new TestResult(test.uniqueId(), test.className(), test.methodName(), test.displayName(),
                test.parameters(), outcome, failure, startedAt, Duration.between(startedAt, Instant.now()),
                containers);
    }
}
