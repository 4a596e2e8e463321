package io.vitals.internal.junit;

import io.vitals.internal.budget.Limit;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.units.DurationParser;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Ends a test early when a sample already breaks a {@code failFast} budget: there is no point training for ten
 * more minutes once peak memory is over budget. Runs on the sampler thread, so it only records the breach and
 * interrupts the test thread; the verdict itself is still given after the test, from the full figures. Its
 * interrupt is scoped to the test's invocation by {@link FailFastScope}, which disarms it when the verdict is in.
 */
final class FailFastGuard implements Consumer<RawReading> {

    private final String container;
    private final List<Limit> limits;
    private final MeasurementWindow window;
    private final Thread testThread;
    private final AtomicReference<String> breach = new AtomicReference<>();
    private final AtomicBoolean armed = new AtomicBoolean(true);

    FailFastGuard(String container, List<Limit> limits, MeasurementWindow window, Thread testThread) {
        this.container = container;
        this.limits = limits;
        this.window = window;
        this.testThread = testThread;
    }

    @Override
    public void accept(RawReading reading) {
        if (breach.get() != null || !armed.get()) {
            return;
        }
        for (Limit limit : limits) {
            // failFast limits are those of figures one sample shows (BudgetPlan.failFastLimits): peaks
            double value = limit.metric().live().orElseThrow().applyAsDouble(reading);
            if (!limit.metric().direction().isWithin(value, limit.value())
                    && breach.compareAndSet(null, describe(limit, value, reading))) {
                testThread.interrupt();
                return;
            }
        }
    }

    private String describe(Limit limit, double value, RawReading reading) {
        String figure = limit.metric().format(value);
        return "container '" + container + "': " + limit.metric().label() + " reached " + figure + " at "
                + DurationParser.format(window.offsetOf(reading)) + ", over the budget of " + limit.text()
                + "; the test was ended early (failFast)";
    }

    /** Stops it from interrupting: the test it guards is over, and its thread runs other code now. */
    void disarm() {
        armed.set(false);
    }

    Optional<String> breach() {
        return Optional.ofNullable(breach.get());
    }
}
