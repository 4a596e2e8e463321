package io.vitals.internal.junit;

import io.vitals.ContainerFaultError;
import io.vitals.ResourceBudgetExceededError;
import io.vitals.internal.regression.RegressionVerdict;
import io.vitals.internal.result.TestResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;

/**
 * One test, measured, in the one place it runs: its windows open, the test runs, the windows close, the verdict is
 * judged and reported, and the test fails with what it must fail with. Being a single call, the verdict is given
 * exactly once and needs no record of which error was thrown already.
 */
final class MeasuredInvocation {

    static final String MEASUREMENT_KEY = "measurement";
    static final String MONITOR_KEY = "monitor";

    private final ExtensionContext test;
    private final ExtensionContext own;
    private final TestIdentity identity;

    /**
     * {@code test} has the test's class, method and instances (a dynamic test's factory); {@code own} is the test's
     * own context, whose name windows, messages and reports carry, and whose store holds what the test opened.
     */
    MeasuredInvocation(ExtensionContext test, ExtensionContext own, TestIdentity identity) {
        this.test = test;
        this.own = own;
        this.identity = identity;
    }

    @SuppressWarnings("try") // the fail-fast scope guards the block and ends with it, never used in it
    void proceed(Invocation<Void> invocation) throws Throwable {
        TestWindows.Opened opened;
        try {
            opened = TestWindows.open(test, own);
        } catch (Throwable e) {
            // never measured: the reports still list it, as Surefire's XML does
            Scopes.classReport(test).unmeasured(UnmeasuredResults.ofTest(identity, TestResult.Outcome.FAILED,
                    Optional.of(UnmeasuredResults.reason(e))));
            throw e;
        }
        TestMeasurement measurement = opened.measurement();
        Judgement judgement = opened.judgement();
        ExtensionContext.Store store = own.getStore(Scopes.NAMESPACE);
        store.put(MEASUREMENT_KEY, measurement); // the store ends the windows should we not get to
        Optional.ofNullable(store.get(MONITOR_KEY, MonitorSlot.class)).ifPresent(slot -> slot.bind(measurement));
        Optional<Throwable> raised;
        try (FailFastScope scope = opened.failFast()) {
            raised = run(invocation);
            judgement.judge(measurement, raised); // closes the windows: no guard fires after this
        }
        // the interrupt is cleared by now: the fault's log tail and the reports talk to the engine and the disk
        Failure failure = raised.map(throwable -> Failure.of(judgement, throwable)).orElse(Failure.NONE);
        List<Throwable> failures = report(judgement, failure);
        // as JUnit does with an after-test callback's failure when the test failed already
        Throwable first = failure.thrown().orElse(failures.isEmpty() ? null : failures.get(0));
        if (first != null) {
            failures.stream().filter(other -> other != first).forEach(first::addSuppressed);
            throw first;
        }
    }

    private static Optional<Throwable> run(Invocation<Void> invocation) {
        try {
            invocation.proceed();
            return Optional.empty();
        } catch (Throwable e) {
            return Optional.of(e);
        }
    }

    /**
     * What the test fails with, if it threw: a fault wins over what it threw (an OOM kill is what the failure says
     * even when the test's exception was only its consequence), and so does the budget breach that made a
     * fail-fast guard end the test (the InterruptedException is our doing); otherwise what it threw.
     *
     * @param thrown the test's failure
     * @param isFault whether it is the fault error, which then is not added again
     * @param isBreach whether it is the budget error, which then is not added again
     */
    private record Failure(Optional<Throwable> thrown, boolean isFault, boolean isBreach) {

        static final Failure NONE = new Failure(Optional.empty(), false, false);

        static Failure of(Judgement judgement, Throwable throwable) {
            Optional<ContainerFaultError> fault = judgement.faultError();
            if (fault.isPresent()) {
                fault.get().initCause(throwable);
                return new Failure(Optional.of(fault.get()), true, false);
            }
            if (judgement.endedEarly()) {
                Optional<ResourceBudgetExceededError> breach = judgement.budgetError(Optional.empty());
                if (breach.isPresent()) {
                    breach.get().initCause(throwable);
                    return new Failure(Optional.of(breach.get()), false, true);
                }
            }
            return new Failure(Optional.of(throwable), false, false);
        }
    }

    /**
     * Hands the judged test to the reports and returns what it must fail with besides what it threw: a fault and
     * the budget breaches (with a baseline regression), unless that is what it throws already.
     */
    private List<Throwable> report(Judgement judgement, Failure failure) {
        Optional<Throwable> thrown = failure.thrown();
        VitalsRuntime runtime = Scopes.runtime(test);
        runtime.engine().address().ifPresent(engine -> runtime.stranded().add(engine,
                judgement.strandedContainers(), test.getRequiredTestClass().getSimpleName() + " "
                        + own.getDisplayName()));
        Reports reports = Scopes.reports(test, Scopes.settings(test).reportDir());
        RegressionVerdict regression = reports.compare(judgement.measured(identity, thrown));
        reports.testFinished(own, judgement.result(identity, thrown, regression));
        Scopes.classReport(test).measured(identity.uniqueId());
        List<Throwable> failures = new ArrayList<>();
        judgement.faultError().filter(error -> !failure.isFault()).ifPresent(failures::add);
        judgement.budgetError(Optional.of(regression)).filter(error -> !failure.isBreach()).ifPresent(failures::add);
        return failures;
    }
}
