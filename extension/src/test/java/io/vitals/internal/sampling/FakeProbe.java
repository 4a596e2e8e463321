package io.vitals.internal.sampling;

import io.vitals.ProbeKind;
import io.vitals.internal.probe.HostFacts;
import io.vitals.internal.probe.HostShape;
import io.vitals.internal.probe.ProbeException;
import io.vitals.internal.probe.RawReading;
import io.vitals.internal.probe.ReadBatch;
import io.vitals.internal.probe.ResourceProbe;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A probe whose every read returns the reading the test scripted last (or throws what it scripted), so that tests
 * assert on figures they chose, whatever the sampler's timing.
 */
class FakeProbe implements ResourceProbe {

    private volatile RawReading current;
    private volatile Exception failure;
    private volatile boolean failOnce;
    final AtomicInteger reads = new AtomicInteger();
    /** Reads that were fast reads (also counted in {@link #reads}). */
    final AtomicInteger fastReads = new AtomicInteger();
    final AtomicInteger resets = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    volatile boolean resettable = true;
    /** What {@link #goneNow()} answers: empty while the scripted container lives. */
    volatile Optional<String> goneNow = Optional.empty();
    final AtomicInteger livenessChecks = new AtomicInteger();

    FakeProbe(Readings initial) {
        set(initial);
    }

    FakeProbe set(Readings next) {
        current = next.build();
        failure = null;
        return this;
    }

    /** Every following read throws {@code error} (a ProbeException or a RuntimeException). */
    FakeProbe failWith(Exception error) {
        failure = error;
        failOnce = false;
        return this;
    }

    /** Only the next read throws {@code error}. */
    FakeProbe failNextWith(Exception error) {
        failure = error;
        failOnce = true;
        return this;
    }

    @Override
    public ProbeKind kind() {
        return ProbeKind.HOST_CGROUP_V2;
    }

    /** What {@link #batchMember()} answers: empty unless a test batches this probe's fast reads. */
    volatile Optional<ReadBatch.Member> batchMember = Optional.empty();
    /**
     * Every read in order: 'R' a full read by {@code read()}, 'S' by {@code readScheduled()}, 'F' a fast one; a
     * test's batch adds 'P' for a prefetched fast read, 'Q' for a prefetched full one.
     */
    final List<Character> events = new CopyOnWriteArrayList<>();

    @Override
    public RawReading read() throws ProbeException {
        events.add('R');
        return scripted();
    }

    private RawReading scripted() throws ProbeException {
        reads.incrementAndGet();
        Exception error = failure;
        if (error != null) {
            if (failOnce) {
                failure = null;
            }
            if (error instanceof ProbeException probeException) {
                throw probeException;
            }
            throw (RuntimeException) error;
        }
        return current;
    }

    @Override
    public RawReading readFast(RawReading last) throws ProbeException {
        fastReads.incrementAndGet();
        events.add('F');
        return scripted();
    }

    @Override
    public RawReading readScheduled() throws ProbeException {
        events.add('S');
        return scripted();
    }

    @Override
    public Optional<ReadBatch.Member> batchMember() {
        return batchMember;
    }

    @Override
    public Optional<String> goneNow() {
        livenessChecks.incrementAndGet();
        return goneNow;
    }

    @Override
    public boolean resetHighWaterMark() {
        resets.incrementAndGet();
        return resettable;
    }

    @Override
    public HostShape hostShape() {
        return HostShape.ofCgroup(true, "docker", resettable, new HostFacts(Optional.of("6.12.48"), true));
    }

    @Override
    public Duration minimumInterval() {
        return Duration.ofMillis(1);
    }

    @Override
    public String describe() {
        return "scripted readings";
    }

    @Override
    public void close() {
        closes.incrementAndGet();
    }
}
