package io.vitals.internal.junit;

import java.util.List;

/**
 * Confines the interrupts of a test's fail-fast guards to the test's own invocation. A guard interrupts the thread
 * that runs the test; once the verdict is in, the guards are disarmed and the interrupt one raised is cleared, so
 * that it never reaches the fault's log being read, the reports being written, an {@code @AfterEach} method or the
 * next test on this thread. Close it after the windows: a closed window hands no reading to a guard, and
 * disarming keeps that true should a guard ever be fed from elsewhere.
 */
final class FailFastScope implements AutoCloseable {

    private final List<FailFastGuard> guards;

    FailFastScope(List<FailFastGuard> guards) {
        this.guards = List.copyOf(guards);
    }

    /** Disarms the guards and clears the interrupt one of them raised; the breaches they saw are kept. */
    @Override
    public void close() {
        guards.forEach(FailFastGuard::disarm);
        if (guards.stream().anyMatch(guard -> guard.breach().isPresent())) {
            Thread.interrupted();
        }
    }
}
