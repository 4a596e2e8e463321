package io.vitals.internal.junit;

import io.vitals.DataSize;
import io.vitals.Percentage;
import io.vitals.internal.log.UserLog;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.sampling.MeasurementWindow;
import io.vitals.internal.units.DurationParser;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Warns once per test when a container's memory crosses a share of its limit: the moment before an OOM kill is the
 * one people want to know about, and it is gone from the figures once the kernel has reclaimed or killed.
 */
final class MemoryGuard implements Consumer<RawReading> {

    private static final UserLog LOG = UserLog.named(UserLog.TEST);

    private final String container;
    private final String test;
    private final MeasurementWindow window;
    private final Percentage threshold;
    private final AtomicBoolean warned = new AtomicBoolean();

    MemoryGuard(String container, String test, MeasurementWindow window, Percentage threshold) {
        this.container = container;
        this.test = test;
        this.window = window;
        this.threshold = threshold;
    }

    @Override
    public void accept(RawReading reading) {
        if (reading.memory().limitBytes().isEmpty() || warned.get()) {
            return;
        }
        long limit = reading.memory().limitBytes().getAsLong();
        long used = reading.memory().workingSetBytes();
        if (used >= threshold.fraction() * limit && warned.compareAndSet(false, true)) {
            LOG.warn(String.format("container '%s' in %s crossed %s of its memory limit at %s: %s of %s",
                    container, test, threshold, DurationParser.format(window.offsetOf(reading)),
                    DataSize.ofBytes(used), DataSize.ofBytes(limit)));
        }
    }
}
